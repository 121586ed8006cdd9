import Foundation
import TesseraCLI
import TesseraImage
import TesseraJSON
import TesseraTestSupport
import Testing

@Suite struct CLIMapStyleTests {
  @Test func mapTypeAndSchemeFlagsAreChecked() throws {
    let bogus = CapturedRun(["render", "--output", "x.png", "--map-type", "roadmap"])
    #expect(bogus.status == 2 && bogus.error.contains("--map-type: expected one of normal, terrain"))
    let scheme = CapturedRun(["render", "--output", "x.png", "--color-scheme", "purple"])
    #expect(scheme.status == 2 && scheme.error.contains("expected light, dark or unspecified"))
    let satellite = CapturedRun(["render", "--output", "x.png", "--map-type", "satellite", "--gpu", "surfaceless"])
    #expect(satellite.status == 1 && satellite.error.contains("needs an imagery source (--imagery)"))
  }

  /// The SDK's `unspecified` follows light, on the command line and in scenes.
  @Test func unspecifiedSchemeFollowsLight() throws {
    let directory = try temporaryDirectory()
    var images: [[UInt8]] = []
    for arguments in [
      ["--color-scheme", "unspecified"], ["--color-scheme", "light"], ["--scene", "\(directory)/scene.json"],
    ] {
      try Data(#"{"colorScheme": "unspecified"}"#.utf8).write(to: URL(fileURLWithPath: "\(directory)/scene.json"))
      let output = "\(directory)/\(images.count).png"
      let run = CapturedRun(
        ["render", "--center", "0,0", "--zoom", "15", "--size", "64x48", "--gpu", "surfaceless", "--output", output]
          + arguments)
      #expect(run.status == 0, "\(arguments): \(run.error)")
      images.append(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
    }
    #expect(images[0] == images[1] && images[2] == images[1])
  }

  @Test func darkSchemeIsDarker() throws {
    let directory = try temporaryDirectory()
    func meanLuma(_ scheme: String) throws -> Double {
      let output = "\(directory)/\(scheme).png"
      let run = CapturedRun([
        "render", "--center", "40,-74", "--zoom", "15", "--size", "96x64", "--color-scheme", scheme, "--output",
        output, "--gpu", "surfaceless",
      ])
      #expect(run.status == 0, "\(run.error)")
      let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))), source: output)
      var sum = 0.0
      for index in stride(from: 0, to: image.pixels.count, by: 4) {
        sum += Double(image.pixels[index]) + Double(image.pixels[index + 1]) + Double(image.pixels[index + 2])
      }
      return sum / Double(image.width * image.height * 3)
    }
    #expect(try meanLuma("dark") < 80 && meanLuma("light") > 180)
  }

  /// A source that cannot be opened fails the style, naming it; with --skip-unusable-sources
  /// the rest draws and a warning names the source.
  @Test func unusableSourcesFailOrAreSkippedOnRequest() throws {
    let directory = try temporaryDirectory()
    let output = "\(directory)/out.png"
    for (name, source) in [
      ("invalid", #"{"type": "geojson", "data": 42}"#),
      ("malformed", #"{"type": "geojson", "data": {"type": "Feature", "geometry": {"type": "Model"}}}"#),
      ("missing", #"{"type": "geojson"}"#),
      ("absent", #"{"type": "geojson", "data": "nowhere.geojson"}"#),
    ] {
      let style =
        ##"{"version": 8, "sources": {"bad": \##(source)}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#204060"}}, {"id": "f", "type": "fill", "source": "bad"}]}"##
      let path = "\(directory)/\(name).json"
      try Data(style.utf8).write(to: URL(fileURLWithPath: path))
      let strict = CapturedRun(["render", "--style", path, "--size", "8x8", "--output", output, "--gpu", "surfaceless"])
      #expect(strict.status == 1 && strict.error.contains("\(name).json: source 'bad'"), "\(name): \(strict.error)")
      let lenient = CapturedRun([
        "render", "--style", path, "--size", "8x8", "--output", output, "--gpu", "surfaceless",
        "--skip-unusable-sources",
      ])
      #expect(lenient.status == 0 && lenient.error.contains("source 'bad' is left out"), "\(name): \(lenient.error)")
      let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))), source: output)
      #expect(image.pixel(x: 4, y: 4) == (0x20, 0x40, 0x60, 255))
    }
  }

  @Test func styleFilesAreReadWithClearErrorsAndWarnings() throws {
    let directory = try temporaryDirectory()
    let output = "\(directory)/out.png"
    let missing = CapturedRun(["render", "--style", "\(directory)/none.json", "--output", output])
    #expect(missing.status == 1 && missing.error.contains("none.json") && missing.error.contains("cannot read"))
    try Data("{\n  \"version\": 8,\n  \"layers\": [}".utf8).write(to: URL(fileURLWithPath: "\(directory)/bad.json"))
    let invalid = CapturedRun(["render", "--style", "\(directory)/bad.json", "--output", output])
    #expect(invalid.status == 1 && invalid.error.contains("line 3, column"), "\(invalid.error)")
    let wrongExpression =
      #"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": ["get"]}}]}"#
    try Data(wrongExpression.utf8).write(to: URL(fileURLWithPath: "\(directory)/expression.json"))
    let expression = CapturedRun(["render", "--style", "\(directory)/expression.json", "--output", output])
    #expect(expression.status == 1 && expression.error.contains("layers[0].paint.background-color"))
    let unknown =
      ##"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#123456", "background-glow": 3}}]}"##
    try Data(unknown.utf8).write(to: URL(fileURLWithPath: "\(directory)/unknown.json"))
    let warned = CapturedRun([
      "render", "--style", "\(directory)/unknown.json", "--size", "8x8", "--output", output, "--gpu", "surfaceless",
    ])
    #expect(warned.status == 0 && warned.error.contains("layer 'bg'") && warned.error.contains("background-glow"))
    let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))), source: output)
    #expect(image.pixel(x: 4, y: 4) == (0x12, 0x34, 0x56, 255))
  }

  @Test func mapIDsNameStylesInTheStylesFolder() throws {
    let directory = try temporaryDirectory()
    let style =
      #"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "red"}}]}"#
    try Data(style.utf8).write(to: URL(fileURLWithPath: "\(directory)/alarm.json"))
    let output = "\(directory)/out.png"
    let found = CapturedRun([
      "render", "--map-id", "alarm", "--styles-dir", directory, "--size", "8x8", "--output", output, "--gpu",
      "surfaceless",
    ])
    #expect(found.status == 0, "\(found.error)")
    #expect(
      try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))), source: output).pixel(x: 1, y: 1)
        == (255, 0, 0, 255))
    let unknown = CapturedRun(["render", "--map-id", "calm", "--styles-dir", directory, "--output", output])
    #expect(unknown.status == 2 && unknown.error.contains("(known: alarm)"))
  }

  @Test func googleStylingFromAFileAndStaticMapsRules() throws {
    let directory = try temporaryDirectory()
    let rules = "\(directory)/blue-water.json"
    try Data(##"[{"featureType": "water", "stylers": [{"color": "#0000ff"}]}]"##.utf8).write(
      to: URL(fileURLWithPath: rules))
    let output = "\(directory)/styled.png"
    // Over the demo city's lake; a later --google-style rule turns it red.
    let base = [
      "render", "--center", "40.0185,-74.0185", "--zoom", "15", "--size", "16x16", "--attribution", "off", "--gpu",
      "surfaceless", "--output", output, "--map-style", rules,
    ]
    let blue = CapturedRun(base)
    #expect(blue.status == 0, "\(blue.error)")
    func centre() throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
      try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))), source: output).pixel(x: 8, y: 8)
    }
    #expect(try centre() == (0, 0, 255, 255))
    let red = CapturedRun(base + ["--google-style", "feature:water|element:geometry|color:0xff0000"])
    #expect(red.status == 0, "\(red.error)")
    #expect(try centre() == (255, 0, 0, 255))
    for (bad, expected) in [
      (["--google-style", "feature:roads|color:0xff0000"], "unknown feature 'roads'"),
      (["--google-style", "feature:road|lightness:200"], "rule 0 lightness"),
      (["--map-style", "\(directory)/none.json"], "cannot read"),
    ] {
      let failed = CapturedRun(["render", "--output", output] + bad)
      #expect(failed.status != 0 && failed.error.contains(expected), "\(bad): \(failed.error)")
    }
  }

  /// A one-case render-test folder: a background style and an expected image of `colour`.
  func miniSuite(expected colour: (UInt8, UInt8, UInt8)) throws -> String {
    let root = try temporaryDirectory()
    let folder = root + "/render-tests/background-color/basic"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let style =
      #"{"version": 8, "metadata": {"test": {"width": 16, "height": 8}}, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "rgb(10, 200, 30)"}}]}"#
    try Data(style.utf8).write(to: URL(fileURLWithPath: folder + "/style.json"))
    let pixels: [UInt8] = (0..<16 * 8).flatMap { _ -> [UInt8] in [colour.0, colour.1, colour.2, 255] }
    let png = try PNGCodec.encode(RGBAImage(width: 16, height: 8, pixels: pixels, alpha: .straight))
    try Data(png).write(to: URL(fileURLWithPath: folder + "/expected.png"))
    return root
  }

  /// A case with a malformed style or a value no render can take fails alone.
  @Test func brokenConformanceCasesFailAlone() throws {
    let root = try miniSuite(expected: (10, 200, 30))
    for (name, style) in [
      ("malformed", #"{"version": 8, "layers": [ {"id": "bg", "type": "background"}, }"#),
      ("huge", #"{"version": 8, "metadata": {"test": {"width": 1e30, "height": 8}}, "sources": {}, "layers": []}"#),
      ("hostile-zoom", #"{"version": 8, "zoom": 1e300, "center": [1e300, -1e300], "sources": {}, "layers": []}"#),
    ] {
      let folder = root + "/render-tests/background-color/" + name
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try Data(style.utf8).write(to: URL(fileURLWithPath: folder + "/style.json"))
    }
    let run = CapturedRun(["conformance", root, "--gpu", "surfaceless", "--output", root + "/out"])
    #expect(run.status == 1)
    #expect(run.out.contains("passed 1 of 4"), "\(run.out)")
    #expect(run.out.contains("FAIL background-color/huge") && run.out.contains("pixels a side"), "\(run.out)")
  }

  @Test func conformanceRunnerComparesAndReports() throws {
    let passing = try miniSuite(expected: (10, 200, 30))
    let pass = CapturedRun(["conformance", passing, "--gpu", "surfaceless", "--output", passing + "/out"])
    #expect(pass.status == 0, "\(pass.error)")
    #expect(pass.out.contains("background-color") && pass.out.contains("1/1") && pass.out.contains("passed 1 of 1"))
    let failing = try miniSuite(expected: (200, 10, 30))
    let report = failing + "/report.json"
    let fail = CapturedRun([
      "conformance", failing, "--gpu", "surfaceless", "--output", failing + "/out", "--report", report,
    ])
    #expect(fail.status == 1 && fail.out.contains("FAIL background-color/basic"))
    #expect(FileManager.default.fileExists(atPath: failing + "/out/background-color/basic/actual.png"))
    #expect(FileManager.default.fileExists(atPath: failing + "/out/background-color/basic/diff.png"))
    let entries = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: report)))).array ?? []
    #expect(entries.count == 1 && entries[0]["passed"] == .bool(false) && entries[0]["difference"] == .number(1))
    let none = CapturedRun(["conformance", failing, "--filter", "line-width"])
    #expect(none.status == 2 && none.error.contains("no cases match"))
  }
}
