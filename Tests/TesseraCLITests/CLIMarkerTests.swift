import Foundation
import TesseraCLI
import TesseraImage
import TesseraJSON
import TesseraTestSupport
import Testing

@Suite struct CLIMarkerTests {
  @Test func aSelectedMarkerOpensItsInfoWindowAndOrnamentsFollowTheFlags() throws {
    let directory = try temporaryDirectory()
    let elements = "\(directory)/elements.json"
    let run = CapturedRun([
      "render", "--map-type", "none", "--background", "black", "--center", "0,0", "--zoom", "18", "--size", "240x300",
      "--marker", "0,0,title=Harbour,snippet=Open daily,selected", "--scale-bar", "--attribution", "© Somebody",
      "--accessibility", elements, "--output", "\(directory)/window.png", "--gpu", "surfaceless",
    ])
    #expect(run.status == 0, "\(run.error)")
    let root = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: elements))))
    guard case .array(let list) = root, list.count == 2 else {
      Issue.record("expected the marker and its info window, found \(root)")
      return
    }
    let window = JSONCursor(root: list[1], source: elements)
    #expect(try window["infoWindow"].bool(default: false) && window["label"].optionalString() == "Harbour, Open daily")
    let image = try PNGCodec.decode(
      Array(try Data(contentsOf: URL(fileURLWithPath: "\(directory)/window.png"))), source: "window.png")
    // The bubble is white above the pin; the scale bar's backing is light in the bottom-left.
    let top = Int(try window["frame"]["y"].number()) + 12
    try #require(top > 0 && top < 300)
    let bubble = image.pixel(x: 120, y: top)
    #expect(bubble == (255, 255, 255, 255), "\(bubble)")
    #expect(image.pixel(x: 4, y: 296).r > 150)
    let empty = CapturedRun([
      "render", "--map-type", "none", "--attribution", " ", "--output", "\(directory)/x.png", "--gpu", "surfaceless",
    ])
    #expect(empty.status != 0 && empty.error.contains("--attribution"))
    let badAnchor = CapturedRun([
      "render", "--map-type", "none", "--marker", "0,0,info-anchor=x", "--output", "\(directory)/y.png",
      "--gpu", "surfaceless",
    ])
    #expect(badAnchor.status != 0 && badAnchor.error.contains("info-anchor"))
  }

  @Test func markerFlagsDrawPinsAndWriteAccessibilityElements() throws {
    let directory = try temporaryDirectory()
    let output = "\(directory)/pins.png"
    let elements = "\(directory)/elements.json"
    let run = CapturedRun([
      "render", "--map-type", "none", "--background", "black", "--center", "0,0", "--zoom", "18", "--size", "120x80",
      "--marker", "0,0,title=Harbour,snippet=Open daily",
      "--marker", "0,0.0002,color=#00ff00,anchor=0.5:0.5,z=3",
      "--accessibility", elements, "--output", output, "--gpu", "surfaceless",
    ])
    #expect(run.status == 0, "\(run.error)")
    let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))), source: output)
    // The default pin hangs above its point (red body, bottom-centre anchor); nothing below it.
    let body = image.pixel(x: 60, y: 40 - 14)
    #expect(body.r > 150 && body.g < 100, "\(body)")
    #expect(image.pixel(x: 60, y: 60) == (0, 0, 0, 255))
    // The green pin is centred on its point, 0.0002° ≈ 37 points east; its body is below the centre.
    let greenCentre = image.pixel(x: 60 + 37, y: 40 + 8)
    #expect(greenCentre.g > 100 && greenCentre.r < 100, "\(greenCentre)")
    let root = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: elements))))
    guard case .array(let list) = root else {
      Issue.record("expected a JSON array, found \(root)")
      return
    }
    #expect(list.count == 2)
    let first = JSONCursor(root: list[0], source: elements)
    #expect(try first["title"].optionalString() == "Harbour" && first["snippet"].optionalString() == "Open daily")
    let frame = first["frame"]
    // The default pin is 27×43 points, its bottom centre on the target at (60, 40).
    #expect(try frame["width"].number() == 27 && frame["height"].number() == 43)
    #expect(try abs(frame["x"].number() - 46.5) <= 0.5 && abs(frame["y"].number() - -3) <= 0.5)
  }

  /// A scene with every overlay kind, markers and an open info window: the accessibility
  /// JSON lists them in drawing order (overlays by zIndex, then markers, then the info
  /// window), each with its kind, label (the accessibility label, else the title) and a frame
  /// inside the view; a tile overlay covers the map and is no element.
  @Test func accessibilityListsEveryOverlayKindInDrawingOrder() throws {
    let directory = try temporaryDirectory()
    let picture = RGBAImage(width: 16, height: 16, fill: Color(r: 255, g: 0, b: 0))
    _ = FileManager.default.createFile(atPath: directory + "/red.png", contents: Data(try PNGCodec.encode(picture)))
    try FileManager.default.createDirectory(atPath: directory + "/tiles/0/0", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: directory + "/tiles/0/0/0.png", contents: Data(try PNGCodec.encode(picture)))
    let scene = """
      {
        "size": {"width": 400, "height": 300}, "mapType": "none",
        "camera": {"latitude": 0, "longitude": 0, "zoom": 16},
        "polylines": [{"path": [[0, -0.002], [0, 0.002]], "title": "Ferry route", "zIndex": 2}],
        "polygons": [{"path": [[0.001, 0.001], [0.001, 0.002], [0.0015, 0.0015]], "title": "Park",
                      "accessibilityLabel": "Park, open 8 to 20"}],
        "circles": [{"center": [-0.001, -0.001], "radius": 50, "title": "Pool", "zIndex": 5}],
        "groundOverlays": [{"image": "red.png", "bounds": [-0.0015, 0.001, -0.001, 0.0015], "title": "Old map"}],
        "heatmaps": [{"points": [[0.0005, -0.0015], [0.0006, -0.0014]], "title": "Crowds"}],
        "tileOverlays": [{"source": "tiles", "title": "Grid"}],
        "markers": [{"position": [0, 0], "title": "Harbour", "snippet": "Open daily", "selected": true}]
      }
      """
    try Data(scene.utf8).write(to: URL(fileURLWithPath: directory + "/scene.json"))
    let elements = directory + "/elements.json"
    let run = CapturedRun([
      "render", "--scene", directory + "/scene.json", "--accessibility", elements, "--output",
      directory + "/out.png", "--gpu", "surfaceless",
    ])
    #expect(run.status == 0, "\(run.error)")
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: elements)), as: UTF8.self)
    let list = try #require(try JSONParser.parse(Array(text.utf8)).array)
    let kinds = list.compactMap { $0["kind"]?.string }
    // zIndex 0: polygon, ground overlay, heatmap (in reading order); then 2: polyline; 5: circle.
    #expect(
      kinds == ["polygon", "groundOverlay", "heatmap", "polyline", "circle", "marker", "infoWindow"], "\(text)")
    let labels = list.compactMap { $0["label"]?.string }
    #expect(labels.prefix(5) == ["Park, open 8 to 20", "Old map", "Crowds", "Ferry route", "Pool"], "\(text)")
    #expect(list.first?["title"]?.string == "Park")
    for element in list {
      let frame = try #require(element["frame"]?.object)
      let (x, y) = (frame["x"]?.number ?? -1, frame["y"]?.number ?? -1)
      let (width, height) = (frame["width"]?.number ?? -1, frame["height"]?.number ?? -1)
      #expect(x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= 400 && y + height <= 300, "\(element)")
    }
  }

  /// `--indoor` and `--indoor-level`: the level shown is the first accessibility element; a
  /// level the venue lacks is an error listing its levels.
  @Test func indoorFlagsShowALevelOrListTheLevels() throws {
    let directory = try temporaryDirectory()
    let venue = PackagePaths.path("Tests/TesseraRenderTests/Cases/indoor-venue")
    let elements = directory + "/elements.json"
    let base = [
      "render", "--center", "39.99997,-74.00018", "--zoom", "18", "--size", "200x150", "--output",
      directory + "/indoor.png", "--gpu", "surfaceless", "--indoor", venue,
    ]
    let run = CapturedRun(base + ["--indoor-level", "1", "--accessibility", elements])
    #expect(run.status == 0, "\(run.error)")
    let list = try #require(try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: elements)))).array)
    #expect(list.first?["kind"]?.string == "indoorLevel", "\(list)")
    #expect(list.first?["label"]?.string == "New Bazaar, level First floor")
    let missing = CapturedRun(base + ["--indoor-level", "7"])
    #expect(missing.status != 0, "\(missing.error)")
    #expect(missing.error.contains("no level with ordinal 7; the venue has levels 0 (Ground floor), 1 (First floor)"))
    let alone = CapturedRun(["render", "--indoor-level", "1", "--output", directory + "/x.png"])
    #expect(alone.status == 2 && alone.error.contains("--indoor-level needs --indoor"), "\(alone.error)")
  }

  /// Values with commas are written in double quotes, in every `key=value` flag.
  @Test func quotedValuesKeepTheirCommasAndEscapes() throws {
    let directory = try temporaryDirectory()
    let elements = "\(directory)/elements.json"
    let run = CapturedRun([
      "render", "--map-type", "none", "--background", "black", "--center", "0,0", "--zoom", "18", "--size", "120x80",
      "--marker", #"0,0,title="Hello, World",snippet="He said \"hi\", \\o/""#,
      "--circle", #"0,0,30,fill="rgb(0, 0, 255)",title="Pool, north""#,
      "--accessibility", elements, "--output", "\(directory)/quoted.png", "--gpu", "surfaceless",
    ])
    #expect(run.status == 0, "\(run.error)")
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: elements)), as: UTF8.self)
    let list = try #require(try JSONParser.parse(Array(text.utf8)).array)
    let marker = try #require(list.first { $0["title"]?.string == "Hello, World" }, "\(text)")
    #expect(marker["snippet"]?.string == #"He said "hi", \o/"#, "\(text)")
    #expect(list.contains { $0["title"]?.string == "Pool, north" }, "\(text)")
    let output = "\(directory)/x.png"
    for (spec, message) in [
      (#"0,0,title="open"#, "a quote is not closed"),
      (#"0,0,title="a\nb""#, "a backslash escapes only"),
      ("0,0,title=Hello, World", "unknown key ' World'"),
    ] {
      let bad = CapturedRun(["render", "--marker", spec, "--output", output])
      #expect(bad.status == 2 && bad.error.contains(message), "\(spec): \(bad.status) \(bad.error)")
    }
    let circle = CapturedRun(["render", "--circle", #"0,0,5,title="x"#, "--output", output])
    #expect(circle.status == 2 && circle.error.contains("--circle: a quote is not closed"), "\(circle.error)")
  }

  @Test func badMarkerSpecsAreUsageErrors() throws {
    let output = "\(try temporaryDirectory())/x.png"
    let cases: [(spec: String, message: String)] = [
      ("north,7", "expected LAT,LNG"),
      ("95,7", "expected LAT,LNG"),
      ("0,0,rotation=left", "rotation needs a number"),
      ("0,0,opacity=2", "opacity must be in 0…1"),
      ("0,0,anchor=0.5", "anchor needs X:Y"),
      ("0,0,appear=spin", "appear must be pop, fadeIn or none"),
      ("0,0,glow=1", "unknown key 'glow'"),
      ("0,0,color=notacolour", "color"),
    ]
    for (spec, message) in cases {
      let run = CapturedRun(["render", "--marker", spec, "--output", output])
      #expect(run.status == 2 && run.error.contains(message), "\(spec): \(run.status) \(run.error)")
    }
    let missing = CapturedRun(["render", "--marker", "0,0,icon=/nonexistent/pin.png", "--output", output])
    #expect(missing.status == 1 && missing.error.contains("/nonexistent/pin.png"), "\(missing.error)")
  }

  /// Icons by name from `--icon-folder`; URLs only under `--icon-host`, and every refusal
  /// says why.
  @Test func namedIconsAndIconURLsFollowTheServiceRules() throws {
    let directory = try temporaryDirectory()
    let folder = directory + "/icons"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let icon = RGBAImage(width: 8, height: 8, fill: Color(r: 0, g: 0, b: 255))
    _ = FileManager.default.createFile(atPath: folder + "/square.png", contents: Data(try PNGCodec.encode(icon)))
    let output = directory + "/out.png"
    let base = [
      "render", "--map-type", "none", "--background", "black", "--center", "0,0", "--zoom", "18", "--size", "60x40",
      "--output", output, "--gpu", "surfaceless",
    ]
    let named = CapturedRun(base + ["--icon-folder", folder, "--marker", "0,0,icon=square,anchor=0.5:0.5"])
    #expect(named.status == 0, "\(named.error)")
    let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))), source: output)
    #expect(image.pixel(x: 30, y: 20).b > 200, "\(image.pixel(x: 30, y: 20))")
    for (arguments, message) in [
      (
        ["--marker", "0,0,icon=https://icons.example.org/pin.png"], "icon URLs are off; allow a prefix with --icon-host"
      ),
      (["--marker", "0,0,icon=ftp://icons.example.org/pin.png"], "only http(s) URLs"),
      (
        ["--icon-host", "https://icons.example.org/", "--marker", "0,0,icon=https://elsewhere.example.org/pin.png"],
        "not on an allowed icon host"
      ),
      (["--icon-folder", folder, "--marker", "0,0,icon=absent"], "no icon 'absent'"),
      (["--icon-folder", folder, "--marker", "0,0,info-window=..%2fx"], "info-window"),
      (["--icon-folder", directory + "/none", "--marker", "0,0"], "--icon-folder"),
    ] {
      let run = CapturedRun(base + arguments)
      #expect(run.status != 0 && run.error.contains(message), "\(arguments): \(run.status) \(run.error)")
    }
  }

  /// Colours with commas (`rgb(…)`) stay whole; icon files without an extension are read.
  @Test func colourFunctionsAndExtensionlessIconsWork() throws {
    let directory = try temporaryDirectory()
    var icon = RGBAImage(width: 8, height: 8, fill: Color(r: 0, g: 0, b: 255))
    icon.setPixel(x: 0, y: 0, (0, 0, 255, 255))
    _ = FileManager.default.createFile(atPath: directory + "/square", contents: Data(try PNGCodec.encode(icon)))
    let output = directory + "/out.png"
    let run = CapturedRun([
      "render", "--map-type", "none", "--background", "black", "--center", "0,0", "--zoom", "18", "--size", "60x40",
      "--marker", "0,0,color=rgb(0, 255, 0),anchor=0.5:0.5", "--marker", "0,0.0001,icon=\(directory)/square,anchor=0:0",
      "--output", output, "--gpu", "surfaceless",
    ])
    #expect(run.status == 0, "\(run.error)")
    let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))), source: output)
    let green = image.pixel(x: 30, y: 20)
    #expect(green.g > 150 && green.r < 80, "\(green)")
    // 0.0001° east ≈ 18.6 points: the blue square's top-left corner.
    let blue = image.pixel(x: 30 + 19 + 3, y: 20 + 3)
    #expect(blue.b > 200 && blue.r < 50, "\(blue)")
  }
}

@Suite struct CLIOverlayTests {
  @Test func staticMapsPathsPolygonsAndCirclesAreDrawn() throws {
    let directory = try temporaryDirectory()
    let output = "\(directory)/paths.png"
    let run = CapturedRun([
      "render", "--map-type", "none", "--background", "black", "--center", "0,0", "--zoom", "12", "--size", "200x200",
      "--path", "color:0xff0000ff|weight:6|0,-0.02|0,0.02",
      "--polygon", "color:0x00ff00|weight:0|fillcolor:0x00ff00ff|0.01,-0.01|0.01,0.01|0.02,0.01|0.02,-0.01",
      "--circle", "-0.015,0,300,fill=blue,stroke=blue,width=1",
      "--output", output, "--gpu", "surfaceless",
    ])
    #expect(run.status == 0, "\(run.error)")
    let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))), source: output)
    // Zoom 12 at the equator: 0.01° of longitude ≈ 29 points.
    #expect(image.pixel(x: 100, y: 100).r > 200, "the red path through the centre")
    #expect(image.pixel(x: 100, y: 56).g > 200, "the green polygon above it")
    #expect(image.pixel(x: 100, y: 144).b > 200, "the blue circle below it")
    #expect(image.pixel(x: 20, y: 20) == (0, 0, 0, 255))
    for bad in [
      ["--path", "0,0"], ["--path", "color:0xzz|0,0|1,1"], ["--circle", "0,0,-5"], ["--path", "enc:_p~iF"],
    ] {
      let failed = CapturedRun(["render", "--map-type", "none", "--output", "\(directory)/bad.png"] + bad)
      #expect(failed.status != 0 && failed.error.contains(bad[0]), "\(bad): \(failed.error)")
    }
  }

  @Test func groundOverlaysHeatmapsMyLocationAndTheImplicitCamera() throws {
    let directory = try temporaryDirectory()
    let picture = "\(directory)/red.png"
    try Data(try PNGCodec.encode(RGBAImage(width: 4, height: 4, fill: Color(r: 255, g: 0, b: 0)))).write(
      to: URL(fileURLWithPath: picture))
    let points = "\(directory)/points.geojson"
    try Data(
      #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[0.02,-0.02]}}]}"#
        .utf8
    ).write(to: URL(fileURLWithPath: points))
    let output = "\(directory)/kinds.png"
    // No --center or --zoom: the view fits the ground overlay, the heatmap's point, the
    // location and the --visible point.
    let run = CapturedRun([
      "render", "--map-type", "none", "--background", "black", "--size", "200x200",
      "--ground-overlay", "\(picture),bounds=0:-0.02:0.02:0,opacity=1",
      "--heatmap", "\(points),radius=10", "--my-location", "-0.01,-0.01,accuracy=100",
      "--visible", "0.03,0.03", "--output", output, "--gpu", "surfaceless",
    ])
    #expect(run.status == 0, "\(run.error)")
    let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))), source: output)
    var (red, blue) = (0, 0)
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = image.pixel(x: x, y: y)
        if p.r > 200 && p.g < 60 && p.b < 60 { red += 1 }
        if p.b > 200 && p.r < 120 { blue += 1 }
      }
    }
    #expect(red > 100, "the ground overlay (and the heatmap's core) are in view")
    #expect(blue > 20, "the my-location dot is in view")
    for bad in [
      ["--ground-overlay", "\(picture)"], ["--ground-overlay", "\(directory)/none.png,bounds=0:0:1:1"],
      ["--heatmap", "\(directory)/none.geojson"], ["--my-location", "95,0"], ["--visible", "0"],
      ["--tile-overlay", "x/{z}/{x}/{y}.png,size=abc"], ["--traffic", "\(directory)/none.geojson"],
    ] {
      let failed = CapturedRun(
        ["render", "--map-type", "normal", "--center", "0,0", "--zoom", "3", "--output", "\(directory)/bad.png"] + bad)
      #expect(failed.status != 0, "\(bad) was accepted")
      #expect(!failed.error.isEmpty && !failed.error.contains("Fatal"), "\(bad): \(failed.error)")
    }
  }
}
