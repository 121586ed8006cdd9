import Foundation
import Testing

/// docs/ARCHITECTURE.md against the code: its module list names every target of Package.swift
/// and nothing else, and the code it shows from inside the modules names types that exist.
@Suite struct ArchitectureDocsTests {
  /// The targets Package.swift declares (`.target(name:`, `.executableTarget(name:`,
  /// `.systemLibrary(name:`, the `systemLibrary("…"` helper), test targets left out.
  static func packageTargets() throws -> Set<String> {
    let manifest = try DocsSources.text("Package.swift")
    var names = Set<String>()
    for pattern in [
      #"\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#, #"\bsystemLibrary\(\s*"([^"]+)""#,
    ] {
      let regex = try NSRegularExpression(pattern: pattern)
      for match in regex.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
        if let range = Range(match.range(at: 1), in: manifest) { names.insert(String(manifest[range])) }
      }
    }
    return names
  }

  /// The modules the code block under "## Modules" names: `Tessera…` and `C…` module names, and
  /// `Tools/<name>` for executables.
  static func documentedModules() throws -> Set<String> {
    let text = try DocsSources.text("docs/ARCHITECTURE.md")
    let section = try #require(text.components(separatedBy: "\n## Modules\n").dropFirst().first)
    let parts = section.components(separatedBy: "```")
    try #require(parts.count >= 3, "## Modules should open with a code block of the module graph")
    let graph = parts[1]
    var names = Set<String>()
    for pattern in [#"\b(Tessera[A-Za-z]*|C[A-Z][A-Za-z0-9]+)\b"#, #"Tools/([A-Za-z0-9-]+)"#] {
      let regex = try NSRegularExpression(pattern: pattern)
      for match in regex.matches(in: graph, range: NSRange(graph.startIndex..., in: graph)) {
        if let range = Range(match.range(at: 1), in: graph) { names.insert(String(graph[range])) }
      }
    }
    return names
  }

  @Test func moduleListMatchesPackageTargets() throws {
    let targets = try Self.packageTargets()
    let documented = try Self.documentedModules()
    #expect(targets.count > 20, "Package.swift's targets were not found: \(targets.sorted())")
    let undocumented = targets.subtracting(documented).sorted()
    let unknown = documented.subtracting(targets).sorted()
    #expect(
      undocumented.isEmpty, "targets of Package.swift missing from docs/ARCHITECTURE.md's module list: \(undocumented)")
    #expect(
      unknown.isEmpty, "docs/ARCHITECTURE.md's module list names modules Package.swift does not declare: \(unknown)")
  }

  /// Blocks fenced ```` ```swift internal ```` show code written inside the package's modules,
  /// which a package outside cannot compile; every type they use must exist in Sources/ (or be
  /// declared by the block itself).
  @Test func internalExamplesNameExistingTypes() throws {
    let blocks = try DocsSources.swiftBlocks().filter { $0.info != "swift" }
    for block in blocks {
      #expect(block.info == "swift internal", "\(block.name): unknown fence '```\(block.info)'")
    }
    guard !blocks.isEmpty else { return }
    let declared = try Self.declaredTypes()
    let typeName = try NSRegularExpression(pattern: #"\b([A-Z][A-Za-z0-9]+)\b"#)
    let declaration = try NSRegularExpression(pattern: #"\b(?:struct|enum|class|protocol|typealias)\s+([A-Z]\w*)"#)
    for block in blocks {
      let code = block.lines.map { $0.components(separatedBy: "//")[0] }.joined(separator: "\n")
      let range = NSRange(code.startIndex..., in: code)
      let own = Set(
        declaration.matches(in: code, range: range).compactMap {
          Range($0.range(at: 1), in: code).map { String(code[$0]) }
        })
      let used = Set(
        typeName.matches(in: code, range: range).compactMap {
          Range($0.range(at: 1), in: code).map { String(code[$0]) }
        })
      let missing = used.subtracting(own).subtracting(declared).subtracting(Self.standardTypes).sorted()
      #expect(missing.isEmpty, "\(block.name) names types that Sources/ does not declare: \(missing)")
    }
  }

  /// Names of the standard library the examples use.
  static let standardTypes: Set<String> = [
    "Bool", "Double", "Float", "Int", "Set", "String", "Self", "UInt8", "UInt32",
  ]

  /// The test that compiles ARCHITECTURE.md's overlay kind example, with the overlay class the
  /// example's prose describes.
  static let compiledExamples = ["Tests/TesseraRenderTests/OverlayKindExampleTests.swift"]

  /// Every type declared in Sources/ and in the tests compiling examples (struct, enum, class,
  /// protocol, typealias, actor).
  static func declaredTypes() throws -> Set<String> {
    let regex = try NSRegularExpression(pattern: #"\b(?:struct|enum|class|protocol|typealias|actor)\s+([A-Z]\w*)"#)
    var names = Set<String>()
    let sources = DocsSources.root.appendingPathComponent("Sources")
    let files =
      (FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []).map {
        "Sources/" + $0
      } + compiledExamples
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: DocsSources.root.appendingPathComponent(file), encoding: .utf8)
      for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        if let range = Range(match.range(at: 1), in: text) { names.insert(String(text[range])) }
      }
    }
    return names
  }
}
