import Foundation
import TesseraData
import TesseraTestSupport
import Testing

@testable import TesseraCLI

/// No output of a command replaces one of its inputs, however it is named: the tile archive a
/// render draws, its style file, a marker icon named by a flag or by the scene, a tile source of
/// `tessera tiles`, a shard being merged; compared by device and inode, so another spelling, a
/// hard link or a link to the input is caught too.
@Suite struct CLIInputProtectionTests {
  /// A folder with a small MBTiles of the demo city, a style drawing it, an icon and a scene.
  static func fixture() throws -> String {
    let folder = try temporaryDirectory()
    let tiles = CapturedRun([
      "tiles", "--bbox", "-74.004,39.998,-73.996,40.002", "--zooms", "14-14", "--output", folder + "/city.mbtiles",
      "--quiet",
    ])
    #expect(tiles.status == 0, "\(tiles.error)")
    let style = #"""
      {"version": 8, "sources": {"city": {"type": "raster", "url": "mbtiles://city.mbtiles", "tileSize": 256}},
       "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#102030"}},
                  {"id": "city", "type": "raster", "source": "city"}]}
      """#
    try Data(style.utf8).write(to: URL(fileURLWithPath: folder + "/style.json"))
    let icon = CapturedRun(["render", "--map-type", "none", "--size", "8x8", "--output", folder + "/icon.png"])
    #expect(icon.status == 0, "\(icon.error)")
    let scene = #"""
      {"size": {"width": 32, "height": 32}, "camera": {"latitude": 40, "longitude": -74, "zoom": 14},
       "mapType": "none", "markers": [{"position": [40, -74], "icon": "icon.png"}]}
      """#
    try Data(scene.utf8).write(to: URL(fileURLWithPath: folder + "/scene.json"))
    return folder
  }

  static func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test func aRenderNeverReplacesWhatItReads() throws {
    let folder = try Self.fixture()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let before = ["city.mbtiles", "style.json", "icon.png", "scene.json"].map { Self.contents(folder + "/" + $0) }
    link(folder + "/icon.png", folder + "/icon-hard-link.png")
    try FileManager.default.createSymbolicLink(atPath: folder + "/scene-link.png", withDestinationPath: "scene.json")
    let camera = ["--center", "40,-74", "--zoom", "14", "--size", "32x32"]
    let cases: [(String, [String])] = [
      ("the MBTiles of --tiles", camera + ["--tiles", folder + "/city.mbtiles", "--output", folder + "/city.mbtiles"]),
      ("another spelling", camera + ["--tiles", folder + "/city.mbtiles", "--output", folder + "/.//city.mbtiles"]),
      ("the style", camera + ["--style", folder + "/style.json", "--output", folder + "/style.json"]),
      ("a source of the style", camera + ["--style", folder + "/style.json", "--output", folder + "/city.mbtiles"]),
      (
        "a marker icon",
        camera + ["--map-type", "none", "--marker", "40,-74,icon=\(folder)/icon.png", "--output", folder + "/icon.png"]
      ),
      (
        "a hard link to the icon",
        camera + ["--marker", "40,-74,icon=\(folder)/icon.png", "--output", folder + "/icon-hard-link.png"]
      ),
      ("an icon the scene names", ["--scene", folder + "/scene.json", "--output", folder + "/icon.png"]),
      ("the scene", ["--scene", folder + "/scene.json", "--output", folder + "/scene.json"]),
    ]
    for (name, arguments) in cases {
      let run = CapturedRun(["render"] + arguments)
      #expect(run.status != 0, "\(name) was replaced")
      #expect(run.error.contains("refusing") || run.error.contains("is also"), "\(name): \(run.error)")
    }
    let after = ["city.mbtiles", "style.json", "icon.png", "scene.json"].map { Self.contents(folder + "/" + $0) }
    #expect(before == after)
    // A link planted at the output is refused, wherever it leads.
    let linked = CapturedRun(["render"] + camera + ["--map-type", "none", "--output", folder + "/scene-link.png"])
    #expect(linked.status == 1 && linked.error.contains("symbolic link"), "\(linked.error)")
    #expect(Self.contents(folder + "/scene.json") == before[3])
    // The same render to a new file works.
    let fine = CapturedRun(["render", "--scene", folder + "/scene.json", "--output", folder + "/out.png"])
    #expect(fine.status == 0, "\(fine.error)")
  }

  @Test func tilesNeverRewriteTheirSourceOrAShard() throws {
    let folder = try Self.fixture()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let source = Self.contents(folder + "/city.mbtiles")
    let area = ["--bbox", "-74.004,39.998,-73.996,40.002", "--zooms", "14-14", "--quiet"]
    for arguments in [
      area + ["--tiles", folder + "/city.mbtiles", "--output", folder + "/city.mbtiles"],
      area + ["--style", folder + "/style.json", "--output", folder + "/city.mbtiles"],
      ["merge", "--output", folder + "/city.mbtiles", folder + "/city.mbtiles"],
    ] {
      let run = CapturedRun(["tiles"] + arguments)
      #expect(run.status != 0, "\(arguments)")
      #expect(run.error.contains("refusing to replace it"), "\(run.error)")
    }
    #expect(Self.contents(folder + "/city.mbtiles") == source)
  }

  @Test func aBatchJobNeverWritesOverAnotherJobsIcon() throws {
    let folder = try Self.fixture()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let icon = Self.contents(folder + "/icon.png")
    let jobs = [
      #"{"scene": "scene.json", "output": "first.png"}"#, #"{"scene": "scene.json", "output": "icon.png"}"#,
    ].joined(separator: "\n")
    try Data(jobs.utf8).write(to: URL(fileURLWithPath: folder + "/jobs.jsonl"))
    let run = CapturedRun(["render", "--batch", folder + "/jobs.jsonl", "--threads", "1"])
    #expect(run.status == 1)
    #expect(run.error.contains("line 2") && run.error.contains("refusing to replace it"), "\(run.error)")
    #expect(Self.contents(folder + "/icon.png") == icon)
    #expect(FileManager.default.fileExists(atPath: folder + "/first.png"))
  }
}

/// A batch adds what its renders read after every job: only the paths new to the log are looked
/// at again, and a path read late still protects it.
@Suite struct OutputGuardLogTests {
  @Test func addsTheLogsNewPathsAsTheyAppear() throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for name in ["a.png", "b.png"] { try Data([1]).write(to: URL(fileURLWithPath: folder + "/" + name)) }
    let log = ResourceLog()
    let access = ResourceAccess.local(directory: folder, log: log)
    var inputs = OutputGuard()
    _ = try access.path("a.png", field: "icon")
    inputs.add(log)
    #expect(throws: CommandFailure.self) { try inputs.check(folder + "/a.png", option: "output") }
    try inputs.check(folder + "/b.png", option: "output")
    _ = try access.path("b.png", field: "icon")
    _ = try access.path("a.png", field: "icon")
    inputs.add(log)
    #expect(throws: CommandFailure.self) { try inputs.check(folder + "/b.png", option: "output") }
    #expect(throws: CommandFailure.self) { try inputs.check(folder + "/a.png", option: "output") }
    // Another log starts from its own beginning.
    let other = ResourceLog()
    try Data([1]).write(to: URL(fileURLWithPath: folder + "/c.png"))
    _ = try ResourceAccess.local(directory: folder, log: other).path("c.png", field: "icon")
    inputs.add(other)
    #expect(throws: CommandFailure.self) { try inputs.check(folder + "/c.png", option: "output") }
  }
}
