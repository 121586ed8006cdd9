import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraCLI

/// docs/cli.md documents the command line as the parser defines it: every command has a section
/// and every option of every command (from the commands' own option lists, so a new flag is
/// caught) is named there.
@Suite struct CLIDocsTests {
  static func reference() throws -> String {
    try String(contentsOfFile: PackagePaths.path("docs/cli.md"), encoding: .utf8)
  }

  /// Whether `text` names `--option` as a whole option (not the start of a longer one).
  static func names(_ text: String, option: String) -> Bool {
    var searchRange = text.startIndex..<text.endIndex
    while let found = text.range(of: "--" + option, range: searchRange) {
      let next = found.upperBound < text.endIndex ? text[found.upperBound] : " "
      let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : " "
      if !(next.isLetter || next.isNumber || next == "-") && before != "-" { return true }
      searchRange = found.upperBound..<text.endIndex
    }
    return false
  }

  @Test func everyCommandHasASection() throws {
    let text = try Self.reference()
    for command in TesseraCommandLine.commands {
      #expect(text.contains("## `tessera \(command.name)`"), "docs/cli.md has no section for tessera \(command.name)")
    }
  }

  @Test func everyOptionIsDocumented() throws {
    let text = try Self.reference()
    for command in TesseraCommandLine.commands {
      let missing = command.options.map(\.name).filter { !Self.names(text, option: $0) }
      #expect(missing.isEmpty, "docs/cli.md does not name these options of tessera \(command.name): \(missing)")
    }
  }

  @Test func theMatcherTellsOptionsApart() {
    #expect(Self.names("use `--zoom Z`", option: "zoom"))
    #expect(!Self.names("use `--zoom-level Z`", option: "zoom"))
    #expect(!Self.names("use `--max-zoom Z`", option: "zoom"))
    #expect(Self.names("`--min-zoom Z`, `--max-zoom Z`", option: "max-zoom"))
  }
}
