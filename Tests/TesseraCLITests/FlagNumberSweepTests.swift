import Foundation
import TesseraImage
import TesseraService
import TesseraTestSupport
import Testing

@testable import TesseraCLI

/// The checked-number sweep of the command line: an example for every option of every command
/// that takes a value (a test fails when a command gains an option with no example here, and
/// when a compound flag gains a key its example does not use), and every number in each
/// example replaced in turn by 1e308, −1e308, 5e-324, −0, 2^63, NaN, ±∞ and 1e999. Each variant
/// runs the command in this process: exit status 0, 1 or 2 with a message, never a signal (a
/// trap stops the test process) or a hang (the watchdog stops it). `serve` is swept through its
/// flag reader (it would otherwise listen until stopped).
@Suite(.serialized) struct FlagNumberSweepTests {
  /// Files the examples name, made once.
  static let folder: String = {
    // No digits in the folder's name: the sweep replaces numbers, not paths.
    let letters = (0..<12).map { _ in String("abcdefghijklmnopqrstuvwxyz".randomElement()!) }.joined()
    let folder = NSTemporaryDirectory() + "tessera-flag-sweep-" + letters
    try? FileManager.default.createDirectory(atPath: folder + "/fonts", withIntermediateDirectories: true)
    let png = try! PNGCodec.encode(RGBAImage(width: 8, height: 8, fill: Color(r: 10, g: 120, b: 200)))
    for name in ["icon.png", "a.png", "b.png"] {
      _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(png))
    }
    let points = #"""
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"w": 2}, "geometry": {"type": "Point", "coordinates": [7.42, 43.73]}},
        {"type": "Feature", "properties": {"congestion": "heavy"},
         "geometry": {"type": "LineString", "coordinates": [[7.41, 43.72], [7.44, 43.75]]}}]}
      """#
    _ = FileManager.default.createFile(atPath: folder + "/points.geojson", contents: Data(points.utf8))
    let style = #"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background"}]}"#
    _ = FileManager.default.createFile(atPath: folder + "/style.json", contents: Data(style.utf8))
    try? FileManager.default.createDirectory(atPath: folder + "/styles", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: folder + "/styles/dusk.json", contents: Data(style.utf8))
    let rules = ##"[{"featureType": "water", "stylers": [{"color": "#0000ff"}, {"weight": 2}]}]"##
    _ = FileManager.default.createFile(atPath: folder + "/rules.json", contents: Data(rules.utf8))
    let scene =
      #"{"size": {"width": 16, "height": 12}, "camera": {"latitude": 43.7, "longitude": 7.4, "zoom": 12}, "mapType": "none"}"#
    _ = FileManager.default.createFile(atPath: folder + "/scene.json", contents: Data(scene.utf8))
    let jobs = #"{"scene": "scene.json", "output": "job.png"}"#
    _ = FileManager.default.createFile(atPath: folder + "/jobs.jsonl", contents: Data(jobs.utf8))
    return folder
  }()

  /// Arguments every run of a command starts with (the swept option's own example replaces the
  /// base's value of that option).
  static func base(_ command: String) -> [String] {
    switch command {
    case "render":
      return [
        "--map-type", "none", "--size", "24x16", "--center", "43.73,7.42", "--zoom", "13", "--output",
        folder + "/out.png",
      ]
    case "project": return ["--center", "43.73,7.42", "--zoom", "13", "--size", "64x48"]
    case "tiles":
      return [
        "--map-type", "none", "--bbox", "7.41,43.72,7.43,43.74", "--zooms", "2-2", "--output",
        folder + "/tiles.mbtiles",
        "--quiet",
      ]
    case "diff": return [folder + "/a.png", folder + "/b.png"]
    case "inspect": return ["demo://city"]
    case "bench": return [folder + "/scene.json", "--frames", "1"]
    default: return []
    }
  }

  /// For each option taking a value: the arguments that give it (with what it needs beside it).
  static let examples: [String: [String: [[String]]]] = [
    "render": renderExamples.merging(
      [
        "scene": [["--scene", folder + "/scene.json"]], "output": [["--output", folder + "/o.png"]],
        "format": [["--format", "png8"]], "quality": [["--format", "jpeg", "--quality", "80"]],
        "animate-to": [["--animate-to", "43.74,7.43,14,30,20", "--duration", "0.2", "--fps", "5"]],
        "animate": [["--animate", "zoomBy:1", "--duration", "0.2", "--fps", "5"]],
        "animate-bearing": [["--animate-bearing", "90", "--duration", "0.2", "--fps", "5"]],
        "animate-tilt": [["--animate-tilt", "30", "--duration", "0.2", "--fps", "5"]],
        "duration": [["--animate", "zoomBy:1", "--duration", "0.25", "--fps", "4"]],
        "fps": [["--animate", "zoomBy:1", "--duration", "0.25", "--fps", "4"]],
        "easing": [["--animate", "zoomBy:1", "--duration", "0.2", "--fps", "5", "--easing", "linear"]],
        "accessibility": [["--accessibility", folder + "/a11y.json"]],
        "batch": [["--batch", folder + "/jobs.jsonl", "--threads", "1"]],
        "threads": [["--batch", folder + "/jobs.jsonl", "--threads", "1"]],
        "report": [["--batch", folder + "/jobs.jsonl", "--threads", "1", "--report", folder + "/report.json"]],
      ], uniquingKeysWith: { a, _ in a }),
    "project": [
      "scene": [["--scene", folder + "/scene.json"]], "center": [["--center", "43.73,7.42"]],
      "zoom": [["--zoom", "12.5"]],
      "bearing": [["--bearing", "30"]], "tilt": [["--tilt", "40"]], "size": [["--size", "64x48"]],
      "scale": [["--scale", "2"]], "padding": [["--padding", "1,2,3,4"]], "min-zoom": [["--min-zoom", "2"]],
      "max-zoom": [["--max-zoom", "19"]], "max-tilt": [["--max-tilt", "70"]], "update": [["--update", "scrollBy:3,4"]],
      "point": [["--point", "43.73,7.42,10"]], "unproject": [["--unproject", "12,34"]],
      "fit": [["--fit", "7.41,43.72,7.44,43.75@20"]],
    ],
    "tiles": renderExamples.merging(
      [
        "bbox": [["--bbox", "7.41,43.72,7.43,43.74"]], "geojson": [["--geojson", folder + "/points.geojson"]],
        "zooms": [["--zooms", "2-3"]], "tile-size": [["--tile-size", "512"]], "metatile": [["--metatile", "2"]],
        "buffer": [["--buffer", "64"]], "format": [["--format", "webp"]], "output": [["--output", folder + "/t"]],
        "shard": [["--shard", "0/2"]], "threads": [["--threads", "1"]],
      ], uniquingKeysWith: { a, _ in a }),
    "diff": [
      "threshold": [["--threshold", "0.2"]], "diff": [["--diff", folder + "/d.png"]],
      "allowed": [["--allowed", "0.01"]],
      "side-by-side": [["--side-by-side", folder + "/s.png"]], "overlay": [["--overlay", folder + "/v.png"]],
    ],
    "inspect": [
      "tile": [["--tile", "14/8529/5975"]], "data-root": [["--data-root", folder]],
      "time": [["--tile", "2/1/1", "--time", "3"]],
      "minzoom": [["--minzoom", "2"]], "maxzoom": [["--maxzoom", "14"]], "format": [["--format", "png"]],
    ],
    "bench": [
      "frames": [["--frames", "2"]], "json": [["--json", folder + "/bench.json"]],
      "png": [["--png", folder + "/bench.png"]],
      "gpu": [["--gpu", "surfaceless"]],
    ],
  ]

  /// The map options render and tiles share.
  static let renderExamples: [String: [[String]]] = [
    "center": [["--center", "43.73,7.42"]], "zoom": [["--zoom", "12.5"]], "bearing": [["--bearing", "30"]],
    "tilt": [["--tilt", "40"]], "size": [["--size", "24x16"]], "scale": [["--scale", "1.5"]],
    "padding": [["--padding", "1,2,3,4"]], "background": [["--background", "rgba(10, 20, 30, 0.5)"]],
    "gpu": [["--gpu", "surfaceless"]], "min-zoom": [["--min-zoom", "2"]], "max-zoom": [["--max-zoom", "19"]],
    "max-tilt": [["--max-tilt", "70"]], "sky": [["--sky", "hsl(200, 50%, 70%)"]],
    "update": [["--update", "zoomBy:0.5"], ["--update", "scrollBy:3,4"], ["--update", "zoomBy:1@5,6"]],
    "map-type": [["--map-type", "normal", "--tiles", "demo://city?seed=2"]],
    "color-scheme": [["--color-scheme", "dark"]],
    "language": [["--language", "fr"]], "tiles": [["--map-type", "normal", "--tiles", "demo://city?seed=7"]],
    "imagery": [["--imagery", "imagery/{z}/{x}/{y}.png"]], "dem": [["--dem", "dem/{z}/{x}/{y}.png"]],
    "style": [["--style", folder + "/style.json"]],
    "map-id": [["--map-id", "dusk", "--styles-dir", folder + "/styles"]],
    "styles-dir": [["--map-id", "dusk", "--styles-dir", folder + "/styles"]],
    "map-ids": [["--map-id", "dusk", "--map-ids", folder + "/styles"]], "data-root": [["--data-root", folder]],
    "marker": [
      [
        "--marker",
        "43.73,7.42,color=red,icon=\(folder)/icon.png,title=T,snippet=S,anchor=0.5:1,rotation=30,flat,opacity=0.5,z=3,"
          + "appear=pop,selected,info-window=\(folder)/icon.png,info-anchor=0.5:0",
      ]
    ],
    "tile-timeout": [["--tile-timeout", "5"]], "fonts": [["--fonts", folder + "/fonts"]],
    "attribution": [["--attribution", "off"]],
    "path": [["--path", "color:0xff0000ff|weight:3|geodesic:true|43.72,7.41|43.74,7.43"]],
    "polygon": [["--polygon", "fillcolor:0x00ff0080|weight:2|43.72,7.41|43.72,7.43|43.74,7.43"]],
    "circle": [["--circle", "43.73,7.42,300,fill=red,stroke=blue,width=2,z=1,title=\"Pool, north\""]],
    "icon-folder": [["--icon-folder", folder, "--marker", "43.73,7.42,icon=icon"]],
    "indoor": [["--indoor", PackagePaths.path("Tests/TesseraRenderTests/Cases/indoor-venue")]],
    "indoor-level": [
      ["--indoor", PackagePaths.path("Tests/TesseraRenderTests/Cases/indoor-venue"), "--indoor-level", "1"]
    ],
    "icon-host": [["--icon-host", "https://icons.example.org/", "--marker", "43.73,7.42"]],
    "ground-overlay": [
      ["--ground-overlay", "\(folder)/icon.png,bounds=43.72:7.41:43.73:7.42,bearing=10,opacity=0.5,z=2,title=Old"],
      ["--ground-overlay", "\(folder)/icon.png,at=43.73:7.42,zoom=15,anchor=0.5:0.5"],
    ],
    "tile-overlay": [["--tile-overlay", "\(folder)/tiles/{z}/{x}/{y}.png,opacity=0.5,size=256,z=3,title=Grid"]],
    "heatmap": [["--heatmap", "\(folder)/points.geojson,radius=20,opacity=0.6,intensity=2,weight=w,z=4,title=Crowds"]],
    "my-location": [["--my-location", "43.73,7.42,accuracy=50,heading=90"]],
    "traffic": [["--map-type", "normal", "--traffic", "\(folder)/points.geojson,layer=traffic,attribute=congestion"]],
    "visible": [["--visible", "43.72,7.41|43.75,7.44"]], "map-style": [["--map-style", folder + "/rules.json"]],
    "google-style": [["--google-style", "feature:road.local|element:geometry|color:0x00ff00|weight:1"]],
  ]

  /// Serve's options, read by its flag reader.
  static let serveExamples: [String: [String]] = [
    "config": [], "listen": ["--listen", "127.0.0.1:8080"], "workers": ["--workers", "2"], "queue": ["--queue", "8"],
    "deadline": ["--deadline", "10"], "gpu": ["--gpu", "surfaceless"], "data-root": ["--data-root", "."],
    "tiles": ["--tiles", "demo://city?seed=3"], "imagery": [], "dem": [], "map-ids": [],
    "public-url": ["--public-url", "https://maps.example.org:8443/a"], "header-timeout": ["--header-timeout", "10"],
    "body-timeout": ["--body-timeout", "30"], "max-connections-per-client": ["--max-connections-per-client", "64"],
    "drain": ["--drain", "15"],
  ]

  static let sweptCommands = ["render", "project", "tiles", "diff", "inspect", "bench"]

  @Test func everyOptionTakingAValueHasAnExample() throws {
    for command in TesseraCommandLine.commands
    where Self.sweptCommands.contains(command.name) || command.name == "serve" {
      let known =
        command.name == "serve" ? Set(Self.serveExamples.keys) : Set(Self.examples[command.name]?.keys ?? [:].keys)
      let missing = command.options.filter { $0.takesValue && !known.contains($0.name) }.map(\.name)
      #expect(missing.isEmpty, "add examples of \(missing) (tessera \(command.name)) to FlagNumberSweepTests")
    }
  }

  @Test func compoundExamplesUseEveryKey() {
    func uses(_ option: String, _ keys: [String]) {
      let text = (Self.renderExamples[option] ?? []).flatMap { $0 }.joined(separator: " ")
      for key in keys {
        #expect(text.contains(key + "=") || text.contains("," + key), "--\(option) example lacks key '\(key)'")
      }
    }
    uses("marker", MarkerFlag.keys)
    uses("circle", OverlayFlags.circleKeys)
    for (option, keys) in OverlayKindFlags.keys { uses(option, keys) }
  }

  /// Runs `arguments` in this process under the watchdog.
  static func run(_ arguments: [String]) -> CapturedRun {
    Watchdog.run("tessera " + arguments.joined(separator: " "), seconds: 60) { CapturedRun(arguments) }
  }

  @Test(arguments: sweptCommands)
  func everyNumberOfEveryFlagIsCheckedOrRun(command: String) throws {
    _ = Self.folder
    var outcomes = [Int32: Int]()
    var silent: [String] = []
    for (option, examples) in Self.examples[command] ?? [:] {
      for example in examples {
        let given = Set(example.enumerated().filter { $0.offset % 2 == 0 && $0.element.hasPrefix("--") }.map(\.element))
        // The base without the options the example gives.
        var base: [String] = []
        var index = 0
        let plain = Self.base(command)
        while index < plain.count {
          if plain[index].hasPrefix("--"), given.contains(plain[index]) {
            index += plain.indices.contains(index + 1) && !plain[index + 1].hasPrefix("--") ? 2 : 1
            continue
          }
          base.append(plain[index])
          index += 1
        }
        for (position, argument) in example.enumerated() where !argument.hasPrefix("--") {
          for variant in HostileNumbers.textVariants(of: argument) {
            var arguments = example
            arguments[position] = variant.text
            let run = Self.run([command] + base + arguments)
            outcomes[run.status, default: 0] += 1
            if ![0, 1, 2].contains(run.status) || (run.status != 0 && run.error.isEmpty) {
              silent.append("--\(option) \(variant.text): status \(run.status), '\(run.error)'")
            }
            if run.status == 1, ProcessInfo.processInfo.environment["TESSERA_SWEEP_SHOW"] != nil {
              print("exit 1: --\(option) \(variant.text): \(run.error)")
            }
          }
        }
      }
    }
    print(
      "flag sweep 'tessera \(command)': \(outcomes.sorted { $0.key < $1.key }.map { "\($0.value) × exit \($0.key)" })")
    #expect(silent.isEmpty, "\(silent.joined(separator: "\n"))")
  }

  @Test func everyNumberOfServesFlagsIsChecked() throws {
    var refused = 0
    var read = 0
    for (option, example) in Self.serveExamples where !example.isEmpty {
      for variant in HostileNumbers.textVariants(of: example[1]) {
        let arguments = try ParsedArguments(
          [example[0], variant.text], specs: ServeCommand.options, command: "serve")
        var configuration = ServiceConfiguration()
        do {
          try ServeCommand.apply(arguments, to: &configuration)
          read += 1
        } catch {
          #expect(!"\(error)".isEmpty, "--\(option) \(variant.text)")
          refused += 1
        }
      }
    }
    print("flag sweep 'tessera serve': \(read) read, \(refused) refused")
    #expect(refused > 0)
  }
}
