import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// Tile overlays (``TileOverlay``): `"tileOverlays": [{"source": TEMPLATE_OR_URL, "tileSize": 256,
/// "opacity", "zIndex"}]`; drawn by a raster source and a `raster` layer. They cover the world:
/// they neither count for a fitted camera nor take hits.
package enum TileOverlayKind: OverlayKind {
  package static let sceneField = "tileOverlays"
  package static let elementKind = "tileOverlay"
  package static let entryFields: Set<String> = ["source", "tileSize", "opacity", "zIndex"]
  package static let nestedFields: [(field: String, fields: Set<String>)] = []
  package static let commandLine: OverlayFlagSyntax? = OverlayFlagSyntax(
    option: "tile-overlay", first: ("source", .fileOrURL),
    keys: [.init("opacity", "opacity", .number), .init("size", "tileSize", .number), .init("z", "zIndex", .number)])

  package static func readEntry(_ entry: JSONCursor, reader: OverlayReader) throws -> TileOverlay {
    var source = try entry["source"].string()
    do {
      source = try reader.access.sourceReference(source, field: entry["source"].path)
      if !source.contains("://") { source = try reader.access.path(source, field: entry["source"].path) }
    } catch {
      throw OverlayError(field: entry.source, reason: "\(error)")
    }
    let overlay = TileOverlay(source: source)
    overlay.tileSize = try entry["tileSize"].integer(default: 256, in: 64...4096)
    overlay.opacity = try entry["opacity"].number(default: 1, in: 0...1)
    overlay.zIndex = try OverlayReader.zIndex(entry)
    return overlay
  }

  package static func validate(_ tiles: TileOverlay, _ check: OverlayCheck) throws(OverlayError) {
    try check.size(tiles.opacity, "opacity")
    guard (1...8192).contains(tiles.tileSize) else { throw check.fail("tileSize \(tiles.tileSize) is not in 1…8192") }
  }

  /// Tiles: no points are made.
  package static func pointCount(_ tiles: TileOverlay) -> Int { 0 }

  package static func coordinates(_ tiles: TileOverlay) -> [Coordinate] { [] }

  package static func hits(_ tiles: TileOverlay, _ point: ScreenPoint, projection: Projection, tolerance: Double)
    -> Bool
  { false }

  package static func accessibilityFrame(_ tiles: TileOverlay, projection: Projection) -> ScreenRect? { nil }

  package static func addLayers(_ tiles: TileOverlay, to style: inout OverlayStyleBuilder) {
    guard tiles.opacity > 0 else { return }
    let source = style.addRasterSource(tiles.source, isTemplate: tiles.isTemplate, tileSize: tiles.tileSize)
    var layer = OverlayLayer(.raster, source: .own(source))
    layer.setRasterOpacity(tiles.opacity)
    layer.setRasterFadeDuration(0)
    style.addLayer(layer)
  }

  package static func copy(_ tiles: TileOverlay) -> TileOverlay {
    let copy = TileOverlay(source: tiles.source)
    copy.tileSize = tiles.tileSize
    copy.opacity = tiles.opacity
    return copy
  }
}
