import Foundation
import Tessera
import TesseraJSON
import Testing

@testable import TesseraCLI

/// The overlay kinds' flags come from the registry: each flag's spec becomes the scene entry
/// its kind reads, and every kind with a flag is an option of `render`.
@Suite struct OverlayKindFlagTests {
  @Test func everyKindWithAFlagIsAnOptionOnce() {
    let options = MapSettings.cameraOptions.map(\.name)
    for (field, syntax) in OverlayKindFlags.kindFlags {
      #expect(options.filter { $0 == syntax.option }.count == 1, "--\(syntax.option) (\(field))")
      #expect(OverlayKinds.sceneField(named: field) != nil)
      #expect(OverlayKindFlags.keys[syntax.option] == syntax.keys.map(\.key) + ["title"])
    }
    #expect(Set(OverlayKindFlags.kindFlags.map(\.syntax.option)) == ["ground-overlay", "tile-overlay", "heatmap"])
  }

  @Test func aSpecBecomesTheEntryItsKindReads() throws {
    let ground = try #require(GroundOverlayKind.commandLine)
    let entry = try OverlayKindFlags.entry("/tmp/plan.png,at=48.85:2.35,zoom=17,z=3", syntax: ground)
    #expect(
      entry == [
        "image": "/tmp/plan.png", "position": [48.85, 2.35], "zoomLevel": 17, "zIndex": 3,
      ])
    let tiles = try #require(TileOverlayKind.commandLine)
    #expect(
      try OverlayKindFlags.entry("https://t.example/{z}/{x}/{y}.png,size=512", syntax: tiles)
        == ["source": "https://t.example/{z}/{x}/{y}.png", "tileSize": 512])
    let heatmap = try #require(HeatmapKind.commandLine)
    #expect(
      try OverlayKindFlags.entry("/tmp/p.geojson,weight=mag", syntax: heatmap)
        == ["geojson": "/tmp/p.geojson", "weightProperty": "mag"])
  }

  @Test func badSpecsAreRefusedNamingTheFlag() {
    let ground = GroundOverlayKind.commandLine!
    func message(_ text: String) -> String {
      do {
        _ = try OverlayKindFlags.entry(text, syntax: ground)
        return "no error"
      } catch {
        return error.description
      }
    }
    #expect(
      message("/tmp/plan.png,zoom=3")
        == "--ground-overlay: expected IMAGE,bounds=S:W:N:E or IMAGE,at=LAT:LNG, found '/tmp/plan.png,zoom=3'")
    #expect(message("/tmp/plan.png,at=1:2,size=3").contains("--ground-overlay: unknown key 'size'"))
    #expect(message("/tmp/plan.png,bounds=1:2:3").contains("--ground-overlay bounds"))
  }
}
