import Foundation
import Tessera
import TesseraGeo
import TesseraImage
import TesseraNumbers

extension ConformanceRunner {
  /// Tile mode as MapLibre Native's runner does it: the 512-pixel tiles of the style's zoom that
  /// the view (512 × 512 around the centre) meets are each rendered with the camera at the
  /// tile's centre and laid side by side; with `debug`, each tile with data gets a 2-pixel red
  /// outline.
  func renderTiles(_ test: ConformanceCase) throws -> Snapshot {
    let z = Int(clamping: test.zoom.rounded(.down))
    let world = Double(1 << z) * 512
    let centre = Mercator.project(test.center, worldSize: world)
    let half = test.width * test.pixelRatio / 2 / test.pixelRatio
    let columns =
      Int(
        clamping: ((centre.x - half) / 512).rounded(.down))...Int(
        clamping: ((centre.x + half) / 512 - 1e-9).rounded(.down))
    let rows =
      Int(
        clamping: ((centre.y - half) / 512).rounded(.down))...Int(
        clamping: ((centre.y + half) / 512 - 1e-9).rounded(.down))
    let side = Int(clamping: 512 * test.pixelRatio)
    var image = RGBAImage(
      width: columns.count * side, height: rows.count * side,
      pixels: [UInt8](repeating: 0, count: columns.count * side * rows.count * side * 4),
      alpha: .premultiplied)
    var warnings: [String] = []
    for (row, y) in rows.enumerated() {
      for (column, x) in columns.enumerated() {
        var options = try ConformanceRunner.options(for: test)
        let target = Mercator.unproject(
          WorldPoint(x: (Double(x) + 0.5) * 512, y: (Double(y) + 0.5) * 512), worldSize: world)
        options.camera = try Camera(
          target: target, zoom: options.camera.zoom, bearing: options.camera.bearing,
          viewingAngle: options.camera.viewingAngle, limits: options.limits)
        options.width = 512
        options.height = 512
        let tile = try render(test, options: options, tileMode: true)
        var picture = tile.image
        // MapLibre outlines the tiles it draws (none where no source has data), each as the
        // square of the data it draws: an overzoomed tile shows its ancestor's edges only.
        if test.debug && tile.statistics.tiles > 0 {
          let edges = Self.dataTileEdges(TileID(z: z, x: x, y: y), maxZooms: Self.sourceMaxZooms(test.style))
          Self.outline(&picture, width: Int(clamping: 2 * test.pixelRatio), edges: edges)
        }
        warnings += tile.warnings
        for line in 0..<side {
          let source = line * side * 4
          let target = ((row * side + line) * image.width + column * side) * 4
          image.pixels.replaceSubrange(target..<target + side * 4, with: picture.pixels[source..<source + side * 4])
        }
      }
    }
    return Snapshot(image: image, warnings: warnings)
  }

  /// Which edges of a tile's picture are edges of the data tile drawing it (its ancestor at a
  /// source's maximum zoom when deeper), over the style's sources.
  static func dataTileEdges(_ tile: TileID, maxZooms: [Int]) -> TileEdges {
    var edges = TileEdges()
    for maxZoom in maxZooms {
      let span = 1 << max(tile.z - min(max(maxZoom, 0), tile.z), 0)
      edges.left = edges.left || tile.x % span == 0
      edges.top = edges.top || tile.y % span == 0
      edges.right = edges.right || (tile.x + 1) % span == 0
      edges.bottom = edges.bottom || (tile.y + 1) % span == 0
    }
    return edges
  }

  /// The deepest zoom of each tiled source of a style (`maxzoom`, MapLibre's defaults: 18
  /// for GeoJSON, 22 for the others).
  static func sourceMaxZooms(_ style: JSONValue) -> [Int] {
    guard case .object(let sources)? = style["sources"] else { return [] }
    return sources.pairs.compactMap { _, source in
      let type = source["type"]?.string
      guard ["vector", "raster", "raster-dem", "geojson"].contains(type) else { return nil }
      if case .number(let zoom)? = source["maxzoom"], zoom.isFinite { return Int(clamping: min(max(zoom, 0), 30)) }
      return type == "geojson" ? 18 : 22
    }
  }

  /// Sides of a tile's picture.
  struct TileEdges {
    var left = false
    var top = false
    var right = false
    var bottom = false
  }

  /// Paints red borders `width` pixels wide inside the image's `edges` (MapLibre's tile
  /// borders).
  static func outline(
    _ image: inout RGBAImage, width: Int, edges: TileEdges = TileEdges(left: true, top: true, right: true, bottom: true)
  ) {
    for y in 0..<image.height {
      for x in 0..<image.width
      where (edges.left && x < width) || (edges.top && y < width) || (edges.right && x >= image.width - width)
        || (edges.bottom && y >= image.height - width)
      {
        image.setPixel(x: x, y: y, (255, 0, 0, 255))
      }
    }
  }
}
