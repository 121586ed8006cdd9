import Foundation

/// The project's documentation as the docs tests read it: README.md and every page of docs/.
struct DocsSources {
  /// One fenced code block of a page.
  struct CodeBlock {
    /// The page, relative to the project root.
    let page: String
    /// The line of the opening fence (1-based).
    let line: Int
    /// The fence's info string (`swift`, `swift internal`, `sh`, …).
    let info: String
    let lines: [String]

    /// The language: the info string's first word.
    var language: String { info.split(separator: " ").first.map(String.init) ?? "" }
    var name: String { "\(page):\(line)" }
  }

  /// The project root (three folders above this file).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// README.md, then docs/*.md in name order, relative to the root.
  static func pages() throws -> [String] {
    let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
      .filter { $0.hasSuffix(".md") }.sorted()
    return ["README.md"] + docs.map { "docs/\($0)" }
  }

  static func text(_ page: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
  }

  /// Every fenced code block of `page`: fences of three backticks, at the start of a line or
  /// indented in a list item (the block's lines lose that indentation).
  static func codeBlocks(_ page: String) throws -> [CodeBlock] {
    var blocks: [CodeBlock] = []
    var open: (line: Int, indent: Int, info: String, lines: [String])?
    for (index, line) in try text(page).components(separatedBy: "\n").enumerated() {
      let indent = line.prefix { $0 == " " }.count
      let trimmed = line.dropFirst(indent)
      if var current = open {
        if trimmed.trimmingCharacters(in: .whitespaces) == "```" {
          blocks.append(CodeBlock(page: page, line: current.line, info: current.info, lines: current.lines))
          open = nil
        } else {
          current.lines.append(String(line.dropFirst(min(indent, current.indent))))
          open = current
        }
      } else if trimmed.hasPrefix("```") {
        open = (index + 1, indent, String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces), [])
      }
    }
    return blocks
  }

  /// Every Swift block of every page.
  static func swiftBlocks() throws -> [CodeBlock] {
    try pages().flatMap { try codeBlocks($0) }.filter { $0.language == "swift" }
  }
}
