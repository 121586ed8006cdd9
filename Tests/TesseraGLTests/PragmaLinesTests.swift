import Foundation
import TesseraTestSupport
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

  /// Every program file expands as the rule written out line by line (split on newlines, a
  /// line whose words are `#pragma paint: KIND TYPE NAME` replaced, indented, by its
  /// declarations; one starting `#pragma pattern: ` by its lines; joined again) expands it.
  @Test func everyProgramFileExpandsAsTheLineByLineRule() throws {
    func paint(_ source: String, _ stage: PaintPragma.Stage) -> String {
      source.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
        let words = line.split(separator: " ")
        guard words.count == 5, words[0] == "#pragma", words[1] == "paint:" else { return [String(line)] }
        let indent = String(line.prefix { $0 == " " })
        let lines =
          words[2] == "define"
          ? PaintPragma.define(type: String(words[3]), name: String(words[4]), stage: stage)
          : PaintPragma.initialize(type: String(words[3]), name: String(words[4]), stage: stage)
        return lines.map { indent + $0 }
      }.joined(separator: "\n")
    }
    func pattern(_ source: String, _ stage: PaintPragma.Stage) -> String {
      source.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
        let trimmed = line.drop { $0 == " " }
        guard trimmed.hasPrefix("#pragma pattern: ") else { return [String(line)] }
        let directive = trimmed.dropFirst("#pragma pattern: ".count)
        if directive == "functions" { return PatternPragma.functions }
        if directive == "define" {
          return stage == .vertex ? PatternPragma.vertexDeclarations : PatternPragma.fragmentDeclarations
        }
        let indent = String(line.prefix { $0 == " " })
        return PatternPragma.position(String(directive.dropFirst("position ".count))).map { indent + $0 }
      }.joined(separator: "\n")
    }
    let folder = PackagePaths.path("Shaders/programs")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".glsl") }
    #expect(files.count > 30)
    for file in files {
      let source = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
      #expect(!source.contains("\r"), "\(file) has carriage returns")
      let stage: PaintPragma.Stage = file.hasSuffix(".vertex.glsl") ? .vertex : .fragment
      let expanded = PatternPragma.expand(PaintPragma.expand(source, stage: stage), stage: stage)
      #expect(expanded == pattern(paint(source, stage), stage), "\(file)")
    }
  }
}
