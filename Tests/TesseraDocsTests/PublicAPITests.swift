import Foundation
import Testing

/// What `import Tessera` gives, as a list kept in PublicAPI.txt: the types Exports.swift
/// re-exports from the lower modules, then every `public` and `open` declaration of
/// Sources/Tessera, file by file. A change to the public API changes the list, so it shows up as
/// a diff of that file in review; `TESSERA_RECORD=1 swift test --filter PublicAPITests` writes
/// the new list (and still fails, so that nobody forgets to look at it).
@Suite struct PublicAPITests {
  static let listPath = "Tests/TesseraDocsTests/PublicAPI.txt"

  /// Names the package's plumbing uses that must never be public in any module of the library.
  static let plumbing = ["uniformValue", "UniformType", "Earcut", "GPUResourceCache"]

  @Test func publicAPIMatchesTheRecordedList() throws {
    let current = try PublicAPI.list()
    let listURL = DocsSources.root.appendingPathComponent(Self.listPath)
    let recorded = try? String(contentsOf: listURL, encoding: .utf8)
    guard recorded != current else { return }
    if ProcessInfo.processInfo.environment["TESSERA_RECORD"] == "1" {
      try current.write(to: listURL, atomically: true, encoding: .utf8)
      Issue.record("\(Self.listPath) recorded; look at its diff and run the tests again")
      return
    }
    let before = (recorded ?? "").components(separatedBy: "\n")
    let after = current.components(separatedBy: "\n")
    var lines: [String] = []
    for change in after.difference(from: before) {
      switch change {
      case .remove(_, let line, _): lines.append("- \(line)")
      case .insert(_, let line, _): lines.append("+ \(line)")
      }
    }
    Issue.record(
      """
      The public API of Tessera changed (- recorded, + now):
      \(lines.joined(separator: "\n"))
      If the change is meant, run `TESSERA_RECORD=1 swift test --filter PublicAPITests` and commit \
      \(Self.listPath).
      """)
  }

  /// The GPU plumbing (uniform packing, tessellation, the resource cache) and the style
  /// engine's `Expression`, which would clash with Foundation's, stay inside the package.
  @Test func plumbingIsNotPublic() throws {
    let modules = try FileManager.default.contentsOfDirectory(
      atPath: DocsSources.root.appendingPathComponent("Sources").path
    ).filter { $0.hasPrefix("Tessera") }
    #expect(modules.count > 5, "the modules under Sources/ were not found: \(modules)")
    let names = try Regex("\\b(\(Self.plumbing.joined(separator: "|")))\\b|\\b(enum|struct|class) Expression\\b")
    for module in modules.sorted() {
      for declaration in try PublicAPI.declarations(module: module) where declaration.line.contains(names) {
        Issue.record("Sources/\(module)/\(declaration.file): public plumbing: \(declaration.line)")
      }
    }
    let list = try PublicAPI.list()
    for name in Self.plumbing { #expect(!list.contains(name), "PublicAPI.txt names \(name)") }
  }
}

/// Reads the public declarations of a module from its sources.
enum PublicAPI {
  struct Declaration {
    /// The file, relative to the module's folder.
    let file: String
    /// The declaration, normalised: on one line, indented two spaces a level, without its body
    /// or a stored property's initial value.
    let line: String
  }

  /// The list PublicAPI.txt records.
  static func list() throws -> String {
    let exports = try DocsSources.text("Sources/Tessera/Exports.swift").components(separatedBy: "\n")
      .filter { $0.hasPrefix("@_exported import ") }
    var lines = ["# Re-exported by Sources/Tessera/Exports.swift"] + exports
    var file = ""
    for declaration in try declarations(module: "Tessera") {
      if declaration.file != file {
        file = declaration.file
        lines += ["", "# \(file)"]
      }
      lines.append(declaration.line)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Every `public` or `open` declaration of Sources/`module`, files in path order.
  static func declarations(module: String) throws -> [Declaration] {
    let folder = DocsSources.root.appendingPathComponent("Sources/\(module)")
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    let files = walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    var result: [Declaration] = []
    for file in files {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      let lines = text.components(separatedBy: "\n")
      var index = 0
      // A top-level `extension` whose public members are listed under it, once.
      var pendingExtension: String?
      while index < lines.count {
        defer { index += 1 }
        let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
        if !lines[index].hasPrefix(" ") && !trimmed.isEmpty && !trimmed.hasPrefix("//") {
          pendingExtension = trimmed.hasPrefix("extension ") ? normalised(trimmed) : nil
        }
        guard isPublic(trimmed) else { continue }
        let indent = String(repeating: " ", count: lines[index].prefix { $0 == " " }.count)
        if let header = pendingExtension, !indent.isEmpty {
          result.append(Declaration(file: file, line: header))
          pendingExtension = nil
        }
        var joined = trimmed
        // A signature over several lines: up to the closing parenthesis and a following
        // `throws`, `->` or `where` line.
        while index + 1 < lines.count {
          let next = lines[index + 1].trimmingCharacters(in: .whitespaces)
          let open = parenthesisDepth(joined) > 0
          guard open || ["->", "throws", "where", "async"].contains(where: { next.hasPrefix($0) }) else { break }
          joined += (joined.hasSuffix("(") || next.hasPrefix(")") ? "" : " ") + next
          index += 1
        }
        result.append(Declaration(file: file, line: indent + normalised(joined)))
      }
    }
    return result
  }

  /// Whether a trimmed line declares something `public` or `open` (after any attributes).
  static func isPublic(_ line: String) -> Bool {
    var rest = Substring(line)
    while rest.hasPrefix("@") {
      guard let space = rest.firstIndex(of: " ") else { return false }
      rest = rest[rest.index(after: space)...]
    }
    return rest.hasPrefix("public ") || rest.hasPrefix("open ")
  }

  /// `declaration` without its body (`{…}`) or a stored property's initial value, and without
  /// a trailing comment.
  static func normalised(_ declaration: String) -> String {
    let isProperty = declaration.contains(try! Regex("\\b(let|var) "))
    var depth = 0
    var inString = false
    var previous: Character = " "
    var end = declaration.endIndex
    for index in declaration.indices {
      let character = declaration[index]
      if character == "\"" && previous != "\\" { inString.toggle() }
      previous = character
      guard !inString else { continue }
      switch character {
      case "(", "[": depth += 1
      case ")", "]": depth -= 1
      case "{" where depth == 0: end = index
      case "=" where depth == 0 && isProperty: end = index
      case "/" where declaration[index...].hasPrefix("//"): end = index
      default: break
      }
      if end != declaration.endIndex { break }
    }
    return declaration[..<end].trimmingCharacters(in: .whitespaces)
  }

  static func parenthesisDepth(_ text: String) -> Int {
    text.reduce(0) { $0 + ($1 == "(" ? 1 : $1 == ")" ? -1 : 0) }
  }
}
