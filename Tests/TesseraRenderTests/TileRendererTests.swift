import Foundation
import Tessera
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraRender
import TesseraTestSupport
import Testing

/// Raster tiles cut from metatiles: seamless against one large render, labels never cut at a
/// metatile's edge, the same bytes however often they are drawn.
@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
struct TileRendererTests {
  static let monaco = Coordinate(latitude: 43.7384, longitude: 7.4246)

  /// The tile holding `coordinate` at zoom `z`.
  static func tile(_ coordinate: Coordinate, z: Int) -> TileID {
    let point = Mercator.project(coordinate, worldSize: Double(1 << z) * 256)
    return TileID(z: z, x: Int(point.x / 256), y: Int(point.y / 256))
  }

  static func renderer(style: String, settings: TileRenderer.Settings, device: GLDevice) throws -> TileRenderer {
    try TileRenderer(
      template: MapOptions(width: 256, height: 256, camera: MapOptions.defaultCamera), stylePath: style,
      dataRoot: SharedData.path("data"), settings: settings, device: device)
  }

  /// Tiles `columns × rows` from `origin` stitched into one picture.
  static func stitch(_ tiles: [TileID: RGBAImage], origin: TileID, columns: Int, rows: Int, side: Int) -> RGBAImage {
    var image = RGBAImage(width: columns * side, height: rows * side)
    for row in 0..<rows {
      for column in 0..<columns {
        let piece = tiles[TileID(z: origin.z, x: origin.x + column, y: origin.y + row)]!
        for y in 0..<side {
          let target = ((row * side + y) * image.width + column * side) * 4
          image.pixels.replaceSubrange(
            target..<target + side * 4, with: piece.pixels[y * side * 4..<(y + 1) * side * 4])
        }
      }
    }
    return image
  }

  /// A copy of a style without its symbol layers, written beside the test's temporary files.
  static func withoutLabels(_ style: String) throws -> String {
    guard case .object(var root) = try JSONParser.parse(try SharedData.bytes(style)),
      case .array(let layers)? = root["layers"]
    else { throw TileRenderError(description: "\(style): not a style") }
    root["layers"] = .array(layers.filter { $0.object?["type"]?.string != "symbol" })
    let path = FileManager.default.temporaryDirectory.path + "/tessera-tiles-\(getpid())-nolabels.json"
    try Data(JSONValue.object(root).serialized().utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test(arguments: [(15, 256), (16, 256), (15, 512)])
  func stitchedTilesEqualOneLargeRender(z: Int, tileSize: Int) throws {
    let device = try GLDevice(gpu: .surfaceless)
    let style = SharedData.path("data/styles/monaco-basic.json")
    let settings = TileRenderer.Settings(tileSize: tileSize, metatile: 2)
    let renderer = try Self.renderer(style: style, settings: settings, device: device)
    // Two metatiles side by side: their shared edge is a metatile edge.
    let first = Metatile(containing: Self.tile(Self.monaco, z: z), size: 2)
    let second = Metatile(containing: TileID(z: z, x: first.x + 2, y: first.y), size: 2)
    var tiles = try renderer.render(first)
    tiles.merge(try renderer.render(second)) { $1 }
    let origin = TileID(z: z, x: first.x, y: first.y)
    let stitched = Self.stitch(tiles, origin: origin, columns: 4, rows: 2, side: tileSize)
    // One map over the same four by two tiles.
    let world = Double(1 << z) * Double(tileSize)
    let centre = WorldPoint(x: Double(first.x + 2) * Double(tileSize), y: Double(first.y + 1) * Double(tileSize))
    var options = MapOptions(
      width: Double(4 * tileSize), height: Double(2 * tileSize),
      camera: try Camera(target: Mercator.unproject(centre, worldSize: world), zoom: settings.googleZoom(z)))
    options.attribution = .off
    let map = try Map(
      preparation: MapPreparation(options: options, stylePath: style, dataRoot: SharedData.path("data")),
      device: device)
    // The large map draws as tiles do (flat extrusions) but is not cut.
    map.tileCuts = TileCuts(vertical: [], horizontal: [])
    let large = try map.snapshot().image
    let diff = try PixelDiff().compare(stitched, large)
    if ProcessInfo.processInfo.environment["TILE_DUMP"] != nil {
      try Data(try PNGCodec.encode(stitched)).write(to: URL(fileURLWithPath: "/tmp/stitched-\(z)-\(tileSize).png"))
      try Data(try PNGCodec.encode(large)).write(to: URL(fileURLWithPath: "/tmp/large-\(z)-\(tileSize).png"))
      try Data(try PNGCodec.encode(diff.diffImage)).write(to: URL(fileURLWithPath: "/tmp/diff-\(z)-\(tileSize).png"))
    }
    #expect(
      Double(diff.differentPixels) <= PixelDiff.mapLibreAllowedFraction * Double(diff.totalPixels),
      "\(diff.differentPixels) of \(diff.totalPixels) pixels differ at z\(z), \(tileSize)-point tiles")
    // The picture is a map, not an empty frame.
    #expect(!stitched.isUniform)
  }

  @Test func noLabelIsCutAtAMetatileEdge() throws {
    let device = try GLDevice(gpu: .surfaceless)
    let style = SharedData.path("data/styles/monaco-liberty.json")
    let bare = try Self.withoutLabels("data/styles/monaco-liberty.json")
    defer { try? FileManager.default.removeItem(atPath: bare) }
    let settings = TileRenderer.Settings(metatile: 2)
    let labelled = try Self.renderer(style: style, settings: settings, device: device)
    let plain = try Self.renderer(style: bare, settings: settings, device: device)
    var labelPixelsAtInnerEdges = 0
    var labelPixelsAtOuterEdges = 0
    for z in [16, 17] {
      let centre = Metatile(containing: Self.tile(Self.monaco, z: z), size: 2)
      for (dx, dy) in [(0, 0), (2, 0), (0, 2), (2, 2)] {
        let metatile = Metatile(containing: TileID(z: z, x: centre.x + dx, y: centre.y + dy), size: 2)
        let withLabels = try labelled.render(metatile)
        let withoutLabels = try plain.render(metatile)
        let stitched = Self.stitch(
          withLabels, origin: metatile.tiles[0], columns: 2, rows: 2, side: 256)
        let base = Self.stitch(withoutLabels, origin: metatile.tiles[0], columns: 2, rows: 2, side: 256)
        // Label pixels: where the two pictures differ.
        func isLabel(_ x: Int, _ y: Int) -> Bool {
          let offset = (y * 512 + x) * 4
          return (0..<3).contains { abs(Int(stitched.pixels[offset + $0]) - Int(base.pixels[offset + $0])) > 8 }
        }
        for index in 0..<512 {
          for (x, y) in [(0, index), (511, index), (index, 0), (index, 511)] where isLabel(x, y) {
            labelPixelsAtOuterEdges += 1
          }
          for (x, y) in [(255, index), (256, index), (index, 255), (index, 256)] where isLabel(x, y) {
            labelPixelsAtInnerEdges += 1
          }
        }
      }
    }
    #expect(labelPixelsAtOuterEdges == 0, "label pixels on metatile edges: \(labelPixelsAtOuterEdges)")
    // Inside a metatile, labels run across tile edges (the test would see a cut label).
    #expect(labelPixelsAtInnerEdges > 20, "label pixels on inner tile edges: \(labelPixelsAtInnerEdges)")
  }

  @Test func tilesAreTheSameBytesEveryTime() throws {
    let style = SharedData.path("data/styles/monaco-liberty.json")
    let settings = TileRenderer.Settings(scale: 2, metatile: 2)
    let tile = Self.tile(Self.monaco, z: 16)
    let first = try Self.renderer(style: style, settings: settings, device: try GLDevice(gpu: .surfaceless))
    let again = try Self.renderer(style: style, settings: settings, device: try GLDevice(gpu: .surfaceless))
    let image = try first.render(tile)
    #expect(image.width == 512 && image.height == 512)
    #expect(try again.render(Metatile(containing: tile, size: 2))[tile] == image)
    #expect(try first.render(tile) == image)
  }

  @Test func badSettingsAndZoomsAreErrors() throws {
    let device = try GLDevice(gpu: .surfaceless)
    let options = MapOptions(width: 256, height: 256, camera: MapOptions.defaultCamera)
    for (settings, message) in [
      (TileRenderer.Settings(tileSize: 300), "tile size must be 256 or 512"),
      (TileRenderer.Settings(scale: 5), "scale must be 1…4"),
      (TileRenderer.Settings(metatile: 3), "metatile must be 1, 2, 4, 8 or 16"),
      (TileRenderer.Settings(tileSize: 512, scale: 4, metatile: 8), "at most 8192"),
    ] {
      #expect {
        try TileRenderer(template: options, settings: settings, device: device)
      } throws: { error in
        "\(error)".contains(message)
      }
    }
    var grid = options
    grid.showsTileGrid = true
    let renderer = try TileRenderer(template: grid, settings: TileRenderer.Settings(tileSize: 512), device: device)
    #expect(throws: TileRenderError.self) { try renderer.render(TileID(z: 22, x: 0, y: 0)) }
    // The world at zoom 0 is one tile.
    let world = try renderer.render(TileID(z: 0, x: 0, y: 0))
    #expect(world.width == 512 && !world.isUniform)
  }
}
