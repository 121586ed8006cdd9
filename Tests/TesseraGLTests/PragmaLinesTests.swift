import Testing

@testable import TesseraShaders

/// Pragma lines found in shader sources as bytes: only lines whose first word starts with
/// `#pragma` are handed over, and the result is the lines joined again as they were.
@Suite struct PragmaLinesTests {
  /// A rewrite that changes nothing.
  static func unchanged(_ source: String) -> String { PragmaLines.rewrite(source) { _ in nil } }

  @Test func linesWithoutPragmasPassThroughByteForByte() {
    for source in [
      "", "\n", "\n\n", "a", "a\n", "a\n\nb\n", "  x\n\ty\n", "é ü\n// #pragma in a comment\n", "a\r\nb\r\n",
      "#pragma paint: define float width\n  #pragma pattern: define\n", "#pragma",
    ] {
      #expect(Self.unchanged(source) == source, "\(source.debugDescription)")
    }
  }

  @Test func onlyLinesStartingWithPragmaAfterSpacesAreOffered() {
    var offered: [Substring] = []
    _ = PragmaLines.rewrite("#pragma a\n  #pragma b\n\t#pragma c\nx #pragma d\n#pragmatic e\n#pragm f") { line in
      offered.append(line)
      return nil
    }
    #expect(offered == ["#pragma a", "  #pragma b", "#pragmatic e"])
    #expect(
      PragmaLines.lines(of: "#pragma a\n  #pragma b\n\t#pragma c\nx #pragma d\n") == ["#pragma a", "  #pragma b"])
  }

  /// The lines are joined again as `joined(separator: "\n")` would: a replacement of several
  /// lines, of none (the line goes with its newline), at the start, the middle and the end.
  @Test func replacementsAreJoinedLikeTheLinesAround() {
    func rewrite(_ source: String) -> String {
      PragmaLines.rewrite(source) { line in
        switch line.split(separator: " ").last {
        case "two": ["one", "two"]
        case "none": []
        default: nil
        }
      }
    }
    #expect(rewrite("#pragma two\nb") == "one\ntwo\nb")
    #expect(rewrite("a\n#pragma two\nb\n") == "a\none\ntwo\nb\n")
    #expect(rewrite("a\n#pragma two") == "a\none\ntwo")
    #expect(rewrite("a\n#pragma none\nb") == "a\nb")
    #expect(rewrite("a\n#pragma none") == "a")
    #expect(rewrite("#pragma none\nb") == "b")
    #expect(rewrite("a\n#pragma keep\nb") == "a\n#pragma keep\nb")
  }

  /// Every program's stages expand with no pragma line left and their `main` kept.
  @Test func expandedProgramsHaveNoPragmaLeft() throws {
    for name in ShaderLibrary.names {
      let program = try #require(ShaderLibrary.program(named: name))
      for stage in [program.vertex, program.fragment] {
        #expect(PragmaLines.lines(of: stage).isEmpty, "\(name) keeps a pragma")
        #expect(stage.contains("void main()"), "\(name) lost its main function")
      }
    }
  }
}
