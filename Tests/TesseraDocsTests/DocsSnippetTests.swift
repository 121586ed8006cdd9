import Foundation
import Testing

/// Every ```` ```swift ```` block of README.md and docs/ compiles: the blocks are written into a
/// package of their own that depends on Tessera (and TesseraTesting) by path, one target per
/// block, and the package is built once with `swift build`. A block of statements is wrapped in
/// a function; a block of declarations (a `@Test`, a type) is compiled as it stands; a block
/// without an `import` gets `import Tessera`. Blocks fenced ```` ```swift internal ```` show
/// code inside the package's own modules and are checked by ``ArchitectureDocsTests`` instead.
///
/// The package lives in `.build/docs-snippets`, so after the first build (which builds Tessera
/// once more, a few minutes, at the lowest CPU priority) only the blocks recompile. `TESSERA_SKIP_DOCS_BUILD=1` skips it
/// with a printed reason, as does a machine without `swift`.
@Suite struct DocsSnippetTests {
  /// Keywords and attributes that open a declaration at the top level of a file.
  static let declarationStarts = [
    "@", "func ", "struct ", "enum ", "class ", "final class ", "actor ", "protocol ", "extension ", "public ",
    "private ", "fileprivate ", "internal ", "package ", "}", "//",
  ]

  /// A block as the source of a file of its own target.
  static func source(of block: DocsSources.CodeBlock, function: String) -> String {
    let imports = block.lines.filter { $0.hasPrefix("import ") || $0.hasPrefix("@testable import ") }
    let body = block.lines.filter { !imports.contains($0) }
    let topLevel = body.filter { !$0.isEmpty && !$0.hasPrefix(" ") }
    let declarations =
      !topLevel.isEmpty && topLevel.allSatisfy { line in declarationStarts.contains { line.hasPrefix($0) } }
    let header = "// \(block.name)\n" + (imports.isEmpty ? "import Tessera" : imports.joined(separator: "\n")) + "\n\n"
    if declarations { return header + body.joined(separator: "\n") + "\n" }
    let indented = body.map { $0.isEmpty ? "" : "  " + $0 }
    return header + "func \(function)() async throws {\n" + indented.joined(separator: "\n") + "\n}\n"
  }

  /// A target name for a block: its page and line.
  static func targetName(_ block: DocsSources.CodeBlock) -> String {
    let page = block.page.map { $0.isLetter || $0.isNumber ? $0 : "_" }
    return "Snippet_" + String(page) + "_\(block.line)"
  }

  @Test func everySwiftBlockCompiles() throws {
    let blocks = try DocsSources.swiftBlocks().filter { $0.info == "swift" }
    #expect(blocks.count >= 4, "README.md and docs/ should hold the library, style, marker and snapshot examples")
    let environment = ProcessInfo.processInfo.environment
    if environment["TESSERA_SKIP_DOCS_BUILD"] == "1" {
      print("DocsSnippetTests: skipped (TESSERA_SKIP_DOCS_BUILD=1): \(blocks.count) Swift blocks not compiled")
      return
    }
    guard let version = try? Self.run(["swift", "--version"], in: DocsSources.root), version.status == 0 else {
      print("DocsSnippetTests: skipped: no `swift` on PATH to build the docs' \(blocks.count) Swift blocks")
      return
    }

    let package = DocsSources.root.appendingPathComponent(".build/docs-snippets")
    let sources = package.appendingPathComponent("Sources")
    try? FileManager.default.removeItem(at: sources)
    var targets: [String] = []
    for (index, block) in blocks.enumerated() {
      let name = Self.targetName(block)
      let folder = sources.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Self.source(of: block, function: "snippet\(index)")
        .write(to: folder.appendingPathComponent("\(name).swift"), atomically: true, encoding: .utf8)
      targets.append(name)
    }
    let products =
      #"[.product(name: "Tessera", package: "Tessera"), .product(name: "TesseraTesting", package: "Tessera")]"#
    let manifest = """
      // swift-tools-version:6.0
      // Written by Tests/TesseraDocsTests: the Swift blocks of README.md and docs/, one target each.
      import PackageDescription

      let package = Package(
        name: "DocsSnippets",
        platforms: [.macOS(.v13)],
        dependencies: [.package(name: "Tessera", path: \(Self.literal(DocsSources.root.path)))],
        targets: [
      \(targets.map { "    .target(name: \"\($0)\", dependencies: \(products))," }.joined(separator: "\n"))
        ]
      )

      """
    try manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

    // At the lowest priority: the tests that measure time run beside it on the same cores.
    let build = try Self.run(
      [
        "nice", "-n", "19", "swift", "build", "--package-path", package.path, "--scratch-path",
        package.appendingPathComponent(".build").path,
      ],
      in: package)
    let errors = build.output.split(separator: "\n").filter { $0.contains("error:") }.map { line in
      // Name the page and line the failing file came from.
      var text = String(line)
      for block in blocks where text.contains(Self.targetName(block) + ".swift") {
        text = "[\(block.name)] " + text
      }
      return text
    }
    let details = errors.isEmpty ? String(build.output.suffix(4000)) : errors.prefix(40).joined(separator: "\n")
    #expect(build.status == 0, "the docs' Swift blocks do not compile (\(package.path)):\n\(details)")
  }

  /// A Swift string literal of `text`.
  static func literal(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  /// Runs a command (found on PATH) and returns its exit status and its output and errors together.
  static func run(_ arguments: [String], in folder: URL) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("docs-snippets-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    defer {
      try? handle.close()
      try? FileManager.default.removeItem(at: log)
    }
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    process.waitUntilExit()
    let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return (process.terminationStatus, output)
  }
}
