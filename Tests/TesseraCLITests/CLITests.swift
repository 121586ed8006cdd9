import Foundation
import TesseraCLI
import TesseraImage
import TesseraJSON
import TesseraTestSupport
import Testing

/// Runs the command line in-process and captures what it prints.
final class CapturedRun: @unchecked Sendable {
  var out = ""
  var error = ""
  var status: Int32 = -1

  init(_ arguments: [String]) {
    let console = Console(out: { self.out += $0 }, error: { self.error += $0 })
    status = TesseraCommandLine.run(arguments, console: console)
  }
}

/// A fresh temporary directory per test.
func temporaryDirectory() throws -> String {
  let path = NSTemporaryDirectory() + "tessera-cli-\(UUID().uuidString)"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

@Suite struct CLIHelpAndUsageTests {
  @Test(arguments: ["render", "project", "inspect", "diff", "bench", "gpus", "conformance", "serve", "tiles"])
  func everyCommandHasHelp(_ command: String) {
    let run = CapturedRun([command, "--help"])
    #expect(run.status == 0)
    #expect(run.out.contains("usage: tessera \(command)"))
  }

  @Test func generalHelpListsCommands() {
    let run = CapturedRun(["--help"])
    #expect(run.status == 0)
    // Every command's whole name, then its summary.
    for command in ["render", "project", "inspect", "diff", "bench", "gpus", "conformance"] {
      #expect(run.out.contains("  \(command) "), "\(command) missing or cut")
    }
    #expect(CapturedRun([]).status == 2)
    #expect(CapturedRun(["--version"]).out.hasPrefix("tessera "))
  }

  @Test(arguments: [
    (["frobnicate"], "unknown command 'frobnicate'"),
    (["render", "--zoom", "3"], "--output FILE is required"),
    (["render", "--output", "x.png", "--bogus"], "unknown option '--bogus'"),
    (["render", "--output", "x.png", "--zoom"], "option '--zoom' needs a value"),
    (["render", "--output", "x.png", "--zoom", "abc"], "--zoom: 'abc' is not a finite number"),
    (["render", "--output", "x.png", "--center", "nan,3"], "--center: 'nan' in 'nan,3' is not a finite number"),
    (["render", "--output", "x.png", "--size", "100"], "--size: '100' must have the form WxH"),
    (["render", "--output", "x.png", "--background", "#12"], "--background: invalid colour '#12'"),
    (
      ["render", "--output", "x.png", "--format", "bmp"],
      "--format: 'bmp' is not one of png, png8, png32, jpeg, webp, gif"
    ),
    (["render", "--output", "x.png", "--gpu", "tpu"], "--gpu: invalid GPU selection 'tpu'"),
    (["render", "--output", "x.png", "--tile-timeout", "-1"], "--tile-timeout must be 0…3600 seconds"),
    (["render", "--output", "x.png", "--tile-timeout", "inf"], "--tile-timeout: 'inf' is not a finite number"),
    (
      ["render", "--output", "x.png", "--min-zoom", "9", "--max-zoom", "3"],
      "minimum zoom 9.0 is greater than maximum zoom 3.0"
    ),
    (["render", "--output", "x.png", "--zoom", "1", "--zoom", "2"], "option '--zoom' given more than once"),
    (["diff", "a.png"], "expects <A.png> <B.png>"),
    (["bench"], "expects <SCENARIO.json>"),
  ])
  func usageErrorsExitWith2AndOneLine(_ arguments: [String], _ message: String) {
    let run = CapturedRun(arguments)
    #expect(run.status == 2)
    #expect(run.error.contains(message), "\(run.error)")
    #expect(run.error.split(separator: "\n").count == 1)
    #expect(run.out.isEmpty)
  }
}

@Suite struct CLIRenderTests {
  @Test(arguments: [("png", ImageFormat.png), ("jpg", .jpeg), ("webp", .webp)])
  func rendersEachFormat(_ fileExtension: String, _ format: ImageFormat) throws {
    let directory = try temporaryDirectory()
    let output = "\(directory)/map.\(fileExtension)"
    let run = CapturedRun([
      "render", "--center", "43.7384,7.4246", "--zoom", "16", "--tilt", "50", "--bearing", "20", "--size", "160x120",
      "--scale", "2", "--output", output, "--gpu", "surfaceless",
    ])
    #expect(run.status == 0, "\(run.error)")
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    #expect(ImageFormat.sniff(bytes) == format)
    let image = try ImageCodec.decode(bytes, source: output)
    #expect(image.width == 320 && image.height == 240)
    #expect(!image.isUniform)
  }

  @Test func rendersASceneWithFlagsOverridingIt() throws {
    let directory = try temporaryDirectory()
    let scene = "\(directory)/scene.json"
    try
      #"{"size": {"width": 90, "height": 60}, "camera": {"latitude": 1, "longitude": 2, "zoom": 5}, "background": "red", "extra": 1}"#
      .write(toFile: scene, atomically: true, encoding: .utf8)
    let output = "\(directory)/out.png"
    let run = CapturedRun([
      "render", "--scene", scene, "--size", "40x30", "--map-type", "none", "--no-tile-grid", "--output", output,
    ])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.error.contains("unknown field 'extra' ignored"))
    let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))), source: output)
    #expect(image.width == 40 && image.height == 30)
    #expect(image.isUniform && image.pixel(x: 0, y: 0) == (255, 0, 0, 255))
  }

  @Test(arguments: [
    (
      #"{"camera": {"latitude": "north", "longitude": 2, "zoom": 5}}"#,
      "camera.latitude: expected a number, found a string"
    ),
    (#"{"size": {"width": 10, "height": 10},"#, "invalid JSON at line 1, column 38"),
    (
      #"{"size": {"width": -4, "height": 10}}"#,
      "size/scale/padding: invalid view: size -4.0x10.0 must be at least 1x1 point"
    ),
    (#"{"background": "nope"}"#, "background: invalid colour 'nope'"),
    (#"{"padding": "zz"}"#, "padding: expected an object, found a string"),
    (#"{"camera": [1, 2]}"#, "camera: expected an object, found an array"),
    (#"{"size": {"width": 1e999, "height": 10}}"#, "number '1e999' is out of range"),
    (#"{"size": {"width": 1e23, "height": 10}}"#, "more than 1048576 pixels a side"),
    (#"{"markers": [{"position": [0, 0], "zIndex": 1e300}]}"#, "zIndex: expected an integer in -2147483648…2147483647"),
  ])
  func badScenesFailWithFileAndField(_ text: String, _ message: String) throws {
    let directory = try temporaryDirectory()
    let scene = "\(directory)/bad.json"
    try text.write(toFile: scene, atomically: true, encoding: .utf8)
    let run = CapturedRun(["render", "--scene", scene, "--output", "\(directory)/x.png"])
    #expect(run.status == 1)
    #expect(run.error.contains("bad.json"))
    #expect(run.error.contains(message), "\(run.error)")
    #expect(!FileManager.default.fileExists(atPath: "\(directory)/x.png"))
  }

  @Test func unknownFieldsInsideObjectsWarn() throws {
    let directory = try temporaryDirectory()
    let scene = "\(directory)/scene.json"
    try
      #"{"size": {"width": 20, "height": 20, "depth": 3}, "camera": {"latitude": 0, "longitude": 0, "zoom": 3, "roll": 1}, "padding": {"top": 1, "middle": 2}, "mapType": "none", "markers": [{"position": [0, 0], "titel": "x"}]}"#
      .write(toFile: scene, atomically: true, encoding: .utf8)
    let run = CapturedRun(["render", "--scene", scene, "--output", "\(directory)/x.png"])
    #expect(run.status == 0, "\(run.error)")
    for field in ["size.depth", "camera.roll", "padding.middle", "markers[0].titel"] {
      #expect(run.error.contains("unknown field '\(field)' ignored"), "\(field): \(run.error)")
    }
  }

  @Test func hugeSizeFailsClearly() throws {
    let directory = try temporaryDirectory()
    let run = CapturedRun([
      "render", "--size", "100000x100000", "--output", "\(directory)/x.png", "--gpu", "surfaceless",
    ])
    #expect(run.status == 1)
    #expect(run.error.contains("100000x100000 is not allowed"))
  }

  @Test func missingSceneAndUnwritableOutputFail() throws {
    let missing = CapturedRun(["render", "--scene", "/nonexistent/scene.json", "--output", "/tmp/x.png"])
    #expect(missing.status == 1 && missing.error.contains("/nonexistent/scene.json: cannot read scene"))
    let unwritable = CapturedRun([
      "render", "--size", "8x8", "--output", "/nonexistent/dir/x.png", "--gpu", "surfaceless",
    ])
    #expect(unwritable.status == 1 && unwritable.error.contains("cannot write /nonexistent/dir/x.png"))
  }
}

@Suite struct CLIDiffBenchAndGPUsTests {
  @Test func diffCountsPixelsAndExitsByAllowance() throws {
    let directory = try temporaryDirectory()
    var image = RGBAImage(width: 10, height: 10, fill: .white)
    try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: "\(directory)/a.png"))
    image.setPixel(x: 4, y: 4, (0, 0, 0, 255))
    try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: "\(directory)/b.png"))
    let same = CapturedRun(["diff", "\(directory)/a.png", "\(directory)/a.png"])
    #expect(same.status == 0 && same.out.contains("different pixels: 0 of 100"))
    let differ = CapturedRun(["diff", "\(directory)/a.png", "\(directory)/b.png", "--diff", "\(directory)/d.png"])
    #expect(differ.status == 1 && differ.out.contains("different pixels: 1 of 100"))
    #expect(FileManager.default.fileExists(atPath: "\(directory)/d.png"))
    let allowed = CapturedRun(["diff", "\(directory)/a.png", "\(directory)/b.png", "--allowed", "0.01"])
    #expect(allowed.status == 0)
    let missing = CapturedRun(["diff", "\(directory)/a.png", "\(directory)/none.png"])
    #expect(missing.status == 1 && missing.error.contains("cannot read \(directory)/none.png"))
  }

  @Test func diffWritesSideBySideOverlayAndJSON() throws {
    let directory = try temporaryDirectory()
    var image = RGBAImage(width: 10, height: 8, fill: .white)
    try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: "\(directory)/a.png"))
    image.setPixel(x: 4, y: 4, (0, 0, 0, 255))
    try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: "\(directory)/b.png"))
    let run = CapturedRun([
      "diff", "\(directory)/a.png", "\(directory)/b.png", "--side-by-side", "\(directory)/s.png", "--overlay",
      "\(directory)/o.png", "--json",
    ])
    #expect(run.status == 1)
    let summary = try JSONParser.parse(Array(run.out.utf8))
    #expect(summary["passed"] == .bool(false))
    #expect(summary["differentPixels"]?.number == 1)
    #expect(summary["totalPixels"]?.number == 80)
    #expect(summary["largestChannelDifference"]?.number == 255)
    #expect((summary["largestDistance"]?.number ?? 0) > 0.9)
    #expect(summary["images"]?["sideBySide"]?.string == "\(directory)/s.png")
    // Side by side: actual, expected and diff, 8 pixels apart; the diff marks the pixel red.
    let sideBySide = try PNGCodec.decode(
      Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/s.png"))), source: "s.png")
    #expect(sideBySide.width == 3 * 10 + 2 * 8 && sideBySide.height == 8)
    #expect(sideBySide.pixel(x: 18 + 4, y: 4).r == 0)
    #expect(sideBySide.pixel(x: 36 + 4, y: 4) == (255, 0, 0, 255))
    let overlay = try PNGCodec.decode(
      Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/o.png"))), source: "o.png")
    #expect(overlay.pixel(x: 4, y: 4) == (255, 0, 0, 255))
    #expect(overlay.pixel(x: 0, y: 0) == (255, 255, 255, 255))
    let within = CapturedRun(["diff", "\(directory)/a.png", "\(directory)/b.png", "--allowed", "0.02", "--json"])
    #expect(within.status == 0)
    #expect(try JSONParser.parse(Array(within.out.utf8))["passed"] == .bool(true))
    let sizes = CapturedRun(["diff", "\(directory)/a.png", "\(directory)/s.png", "--json"])
    #expect(sizes.status == 1)
    #expect(try JSONParser.parse(Array(sizes.out.utf8))["error"]?.string?.contains("differ in size") == true)
  }

  @Test func benchReportsThePeersFieldsAndOurs() throws {
    let directory = try temporaryDirectory()
    let scenario = "\(directory)/scenario.json"
    try
      #"{"name": "tiny", "size": {"width": 64, "height": 48}, "camera": {"latitude": 40, "longitude": -74, "zoom": 15, "viewingAngle": 30}}"#
      .write(toFile: scenario, atomically: true, encoding: .utf8)
    let run = CapturedRun([
      "bench", scenario, "--frames", "3", "--orbit", "--json", "\(directory)/r.json", "--png", "\(directory)/r.png",
      "--gpu", "surfaceless",
    ])
    #expect(run.status == 0, "\(run.error)")
    let report = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/r.json"))))
    for field in [
      "first_ms", "warm_ms", "warm_min_ms", "warm_max_ms", "encode_ms", "process_ms", "draw_calls", "triangles",
    ] {
      #expect((report[field]?.number ?? -1) >= 0, "\(field)")
    }
    #expect(report["scenario"] == "tiny")
    #expect(report["frames"] == 3)
    #expect(report["orbit"] == true)
    #expect(report["gl_renderer"]?.string?.contains("llvmpipe") == true)
    #expect((report["draw_calls"]?.number ?? 0) > 0)
    #expect(
      try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/r.png"))), source: "r.png")
        .width == 64)
  }

  @Test func benchReportsWhereTheTimeWent() throws {
    let directory = try temporaryDirectory()
    let scenario = "\(directory)/city.json"
    try
      #"{"name": "city", "size": {"width": 128, "height": 96}, "mapType": "normal", "camera": {"latitude": 43.7384, "longitude": 7.4246, "zoom": 15}}"#
      .write(toFile: scenario, atomically: true, encoding: .utf8)
    let run = CapturedRun(["bench", scenario, "--frames", "2", "--gpu", "surfaceless"])
    #expect(run.status == 0, "\(run.error)")
    let report = try JSONParser.parse(run.out)
    let first = try #require(report["first_phases"]?.object)
    let warm = try #require(report["phases"]?.object)
    let shared = [
      "tile_wait_ms", "tile_decode_ms", "tessellation_ms", "upload_ms", "command_planning_ms", "plan_ms",
      "command_encoding_ms", "draw_ms", "readback_ms",
    ]
    for key in shared + ["gl_setup_ms", "map_setup_ms"] { #expect((first[key]?.number ?? -1) >= 0, "\(key)") }
    for key in shared + ["image_encode_ms"] { #expect((warm[key]?.number ?? -1) >= 0, "\(key)") }
    // The first frame decodes and tessellates the demo city's tiles; warm frames reuse them.
    #expect((first["tile_decode_ms"]?.number ?? 0) > 0)
    #expect((first["tessellation_ms"]?.number ?? 0) > 0)
    #expect(warm["tile_decode_ms"]?.number == 0)
    #expect(warm["tessellation_ms"]?.number == 0)
    #expect((first["gl_setup_ms"]?.number ?? 0) > 0)
  }

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func benchAcceptsEverySharedScenario() throws {
    let folder = SharedData.path("bench/scenarios")
    let scenarios = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
      .sorted()
    #expect(scenarios.count >= 7)
    for scenario in scenarios {
      let run = CapturedRun(["bench", "\(folder)/\(scenario)", "--frames", "1", "--gpu", "surfaceless"])
      #expect(run.status == 0, "\(scenario): \(run.error)")
      let report = try JSONParser.parse(run.out)
      #expect(report["warm_ms"]?.number != nil, "\(scenario)")
    }
  }

  @Test func gpusListsTheSoftwareDeviceAndSurfaceless() throws {
    let run = CapturedRun(["gpus"])
    #expect(run.status == 0)
    #expect(run.out.contains("surfaceless: Mesa surfaceless platform"))
    #expect(run.out.contains("GL renderer: llvmpipe"))
    #expect(run.out.contains("EGL_MESA_device_software"))
    let json = CapturedRun(["gpus", "--json"])
    let report = try JSONParser.parse(json.out)
    #expect((report["devices"]?.array?.count ?? 0) >= 2)
  }
}

@Suite struct GoldenHarnessTests {
  @Test func mismatchWritesActualAndDiffAndMissingGoldenFails() throws {
    let directory = try temporaryDirectory()
    let image = RGBAImage(width: 20, height: 20, fill: .white)
    let missing = GoldenHarness.check(image, caseDirectory: directory)
    #expect(!missing.passed && missing.message.contains("no reference") && missing.message.contains("TESSERA_RECORD"))
    #expect(FileManager.default.fileExists(atPath: "\(directory)/actual.png"))
    try Data(try PNGCodec.encode(image)).write(to: URL(fileURLWithPath: "\(directory)/expected.png"))
    #expect(GoldenHarness.check(image, caseDirectory: directory).passed)
    #expect(!FileManager.default.fileExists(atPath: "\(directory)/actual.png"))
    var changed = image
    for x in 0..<5 { changed.setPixel(x: x, y: 3, (0, 0, 0, 255)) }
    let outcome = GoldenHarness.check(changed, caseDirectory: directory)
    #expect(!outcome.passed && outcome.message.contains("of pixels differ (5 of 400;"))
    #expect(FileManager.default.fileExists(atPath: "\(directory)/diff.png"))
    #expect(GoldenHarness.check(changed, caseDirectory: directory, allowed: 0.02).passed)
  }

  /// `TESSERA_RECORD=1` records goldens as it records TesseraTesting's references (and the case
  /// still fails); the retired `UPDATE_GOLDENS` fails with a message naming the new switch.
  @Test func oneRecordSwitch() throws {
    let directory = try temporaryDirectory()
    let image = RGBAImage(width: 8, height: 8, fill: .white)
    let recorded = GoldenHarness.check(image, caseDirectory: directory, environment: ["TESSERA_RECORD": "1"])
    #expect(!recorded.passed)
    #expect(FileManager.default.fileExists(atPath: "\(directory)/expected.png"))
    #expect(GoldenHarness.check(image, caseDirectory: directory, environment: [:]).passed)
    let retired = GoldenHarness.check(image, caseDirectory: directory, environment: ["UPDATE_GOLDENS": "1"])
    #expect(!retired.passed && retired.message.contains("use TESSERA_RECORD=1"))
  }
}

@Suite struct CLIProjectAndAnimationTests {
  @Test func projectAnswersQueriesInOrder() throws {
    let run = CapturedRun([
      "project", "--center", "43.7384,7.4246", "--zoom", "16", "--tilt", "80", "--size", "800x600", "--point",
      "43.7384,7.4246",
      "--unproject", "400,300", "--unproject", "400,-5000", "--fit", "7.40,43.72,7.45,43.76", "--point",
      "43.7384,7.4246",
    ])
    #expect(run.status == 0, "\(run.error)")
    let lines = run.out.split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    #expect(lines[0] == "400 300")
    let unprojected = lines[1].split(separator: " ").compactMap { Double($0) }
    #expect(abs(unprojected[0] - 43.7384) < 1e-9 && abs(unprojected[1] - 7.4246) < 1e-9)
    #expect(lines[2] == "none")
    #expect(lines[3].hasPrefix("camera 43.74") && lines[3].hasSuffix(" 0 0"))
    #expect(lines[4] != "400 300")
  }

  @Test func projectJSONPrintsTheClampedCamera() throws {
    let run = CapturedRun([
      "project", "--center", "95,200", "--zoom", "30", "--tilt", "80", "--bearing", "-90", "--size", "100x100",
      "--point", "0,0", "--json",
    ])
    #expect(run.status == 0)
    let report = try JSONParser.parse(run.out)
    #expect(report["camera"]?["latitude"] == 85)
    #expect(report["camera"]?["longitude"] == -160)
    #expect(report["camera"]?["zoom"] == 22)
    #expect(report["camera"]?["bearing"] == 270)
    #expect(report["camera"]?["viewingAngle"] == 65)
    #expect(report["results"]?.array?.count == 1)
  }

  @Test(arguments: [
    (["project", "--center", "0,0", "--zoom", "1", "--size", "10x10"], "give at least one of"),
    (
      ["project", "--center", "0,0", "--zoom", "inf", "--size", "10x10", "--point", "0,0"],
      "--zoom: 'inf' is not a finite number"
    ),
    (["project", "--center", "0,0", "--zoom", "1", "--size", "10x10", "--point", "91,0"], "latitude 91.0 is outside"),
    (
      ["project", "--center", "0,0", "--zoom", "1", "--size", "10x10", "--unproject", "1"],
      "--unproject: '1' must have the form X,Y"
    ),
    (
      ["project", "--center", "0,0", "--zoom", "1", "--size", "10x10", "--fit", "1,2,3"],
      "--fit: '1,2,3': expected fit:W,S,E,N"
    ),
    (["render", "--output", "a.png", "--duration", "2"], "--duration needs an animation"),
    (["render", "--output", "a.png", "--animate-bearing", "2", "--animate-tilt", "3"], "give one of --animate-to"),
    (["render", "--output", "a.jpg", "--animate", "zoomIn"], "animations are written as animated PNG"),
    (["render", "--output", "a.png", "--animate-to", "1,2"], "--animate-to: '1,2': expected LAT,LNG,ZOOM"),
    (["render", "--output", "a.png", "--update", "spin"], "--update: 'spin': expected zoomIn"),
  ])
  func invalidInputExitsWith2(_ arguments: [String], _ message: String) {
    let run = CapturedRun(arguments)
    #expect(run.status == 2)
    #expect(run.error.contains(message), "\(run.error)")
  }

  @Test func rendersAnAnimationAsNumberedFramesAndAnAnimatedPNG() throws {
    let directory = try temporaryDirectory()
    let output = "\(directory)/flight.png"
    let run = CapturedRun([
      "render", "--center", "43.7384,7.4246", "--zoom", "13", "--size", "80x60", "--animate-to",
      "43.7384,7.4246,16,90,60",
      "--duration", "0.5", "--fps", "8", "--output", output, "--gpu", "surfaceless",
    ])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.out.contains("5 frames"))
    for index in 0..<5 {
      #expect(FileManager.default.fileExists(atPath: "\(directory)/flight-000\(index).png"))
    }
    #expect(!FileManager.default.fileExists(atPath: "\(directory)/flight-0005.png"))
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    #expect(String(decoding: bytes[37..<41], as: UTF8.self) == "acTL")
    let last = try PNGCodec.decode(
      Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/flight-0004.png"))), source: "last")
    let expected = CapturedRun([
      "render", "--center", "43.7384,7.4246", "--zoom", "16", "--bearing", "90", "--tilt", "60", "--size", "80x60",
      "--output", "\(directory)/end.png", "--gpu", "surfaceless",
    ])
    #expect(expected.status == 0)
    #expect(
      try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/end.png"))), source: "end")
        == last)
  }

  @Test func updatesApplyInOrder() throws {
    let directory = try temporaryDirectory()
    let moved = CapturedRun([
      "render", "--zoom", "3", "--update", "zoomBy:2", "--update", "scrollBy:100,0", "--size", "50x50", "--output",
      "\(directory)/a.png", "--gpu", "surfaceless",
    ])
    let direct = CapturedRun([
      "render", "--zoom", "5", "--center", "0,\(100.0 / (256 * 32) * 360)", "--size", "50x50", "--output",
      "\(directory)/b.png", "--gpu", "surfaceless",
    ])
    #expect(moved.status == 0 && direct.status == 0)
    let a = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/a.png"))), source: "a")
    let b = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/b.png"))), source: "b")
    #expect(a == b)
  }
}

@Suite struct CLIInspectTests {
  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func inspectsArchivesAndTiles() throws {
    let run = CapturedRun([
      "inspect", "mbtiles://vector/monaco-openmaptiles.mbtiles", "--data-root", SharedData.path("data"), "--tile",
      "14/8529/5974",
    ])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.out.contains("format: mvt  zoom: 0-14  tiles: 23"))
    #expect(
      run.out.contains(
        "layer building: 840 features (Polygon 840), extent 4096, keys: render_height, render_min_height"))
    #expect(run.out.contains("12 layers, 6269 features"))
    let json = CapturedRun([
      "inspect", SharedData.path("data/terrain/monaco-terrarium-z0-12.mbtiles"), "--tile", "12/2132/1493", "--json",
    ])
    let report = try JSONParser.parse(json.out)
    #expect(report["encoding"] == "terrarium")
    #expect((report["tile"]?["maxHeight"]?.number ?? 0) > 500)
  }

  @Test func inspectsTheDemoCity() throws {
    let run = CapturedRun(["inspect", "demo://city?seed=4", "--tile", "15/17059/11948"])
    #expect(run.status == 0)
    #expect(run.out.contains("tile 15/17059/11948: generated"))
    #expect(run.out.contains("layer building:"))
  }

  @Test(arguments: [
    (["inspect", "/nonexistent/x.mbtiles"], Int32(1), "/nonexistent/x.mbtiles: no such file"),
    (["inspect", "demo://city", "--tile", "3/9/1"], 2, "--tile: '3/9/1' is not a tile"),
    (["inspect", "gopher://x"], 1, "unsupported URL scheme"),
  ])
  func badInputIsReported(_ arguments: [String], _ status: Int32, _ message: String) {
    let run = CapturedRun(arguments)
    #expect(run.status == status)
    #expect(run.error.contains(message), "\(run.error)")
  }
}

/// Numbers no integer can hold, on the command line: a message and exit status 2, never a trap.
@Suite struct CLIHostileNumberTests {
  @Test(arguments: [
    ["--scale", "1e20"], ["--size", "9223372036854775807x1"], ["--size", "99999999999999999999x10"],
    ["--size", "64x64", "--marker", "0,0,z=99999999999999999999"], ["--size", "64x64", "--marker", "0,0,z=1e300"],
    ["--size", "64x64", "--padding", "40,0,40,0"], ["--size", "64x64", "--update", "fit:7,43,8,44@40"],
    ["--size", "1e300x1"], ["--size", "64x64", "--scale", "1e300"], ["--size", "64x64", "--zoom", "1e999"],
    ["--size", "64x64", "--marker", "0,0,anchor=1e300:-1e300"],
  ])
  func refusedWithAMessage(_ arguments: [String]) throws {
    let output = try temporaryDirectory() + "/out.png"
    let run = CapturedRun(["render", "--map-type", "none"] + arguments + ["--output", output])
    #expect(run.status == 2, "\(arguments): \(run.error)")
    #expect(run.error.hasPrefix("tessera render: "))
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func hugeButHarmlessNumbersAreClamped() throws {
    let output = try temporaryDirectory() + "/out.png"
    for arguments in [
      ["--zoom", "1e300"], ["--zoom", "-1e300"], ["--bearing", "1e300"], ["--tilt", "1e300"],
      ["--center", "1e300,1e300"],
      ["--marker", "0,0,rotation=1e300"], ["--update", "zoomBy:1e300"],
      ["--update", "scrollBy:1e300,1e300"], ["--update", "zoomBy:1@1e300,1e300"],
    ] {
      let run = CapturedRun(["render", "--map-type", "none", "--size", "32x32"] + arguments + ["--output", output])
      #expect(run.status == 0, "\(arguments): \(run.error)")
    }
  }
}
