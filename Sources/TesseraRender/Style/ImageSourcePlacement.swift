import Foundation
import TesseraData
import TesseraGeo
import TesseraNumbers

/// The corners of an image source's picture in the units of the tile it is drawn in (0…1
/// across the tile; the picture may reach beyond it), in the order top left, top right,
/// bottom right, bottom left.
package struct TileQuad: Sendable, Equatable {
  package let corners: [SIMD2<Double>]
}

/// Where a frame draws an `image` source, placed as MapLibre Native places it: one tile at
/// the deepest zoom whose tiles span the whole picture holds it (the tile nearest the centre
/// of the corners' bounds), its corners in that tile's 1/8192 units (as 16-bit integers),
/// and the picture is drawn once in that tile, plus once per other world copy the view shows.
enum ImageSourcePlacement {
  /// MapLibre's tile extent: the units corners are rounded to.
  static let extent = 8192.0
  /// The highest latitude Web Mercator reaches.
  static let latitudeLimit = 85.051128779806604

  /// The tiles (with their quads) that draw `source` in `transform`; none when the picture
  /// covers 4 square points or less.
  static func tiles(_ source: ImageQuadSource, transform: CameraTransform) -> [RenderTile] {
    guard let zoom = placementZoom(source.corners, transform: transform) else { return [] }
    let home = homeTile(source.corners, zoom: zoom)
    let scale = exp2(Double(zoom))
    let corners = source.corners.map { corner -> SIMD2<Double> in
      let world = Mercator.project(clamped(corner), worldSize: scale)
      func units(_ value: Double, _ origin: Int) -> Double {
        let exact = ((value - Double(origin)) * extent).rounded(.towardZero)
        return min(max(exact, Double(Int16.min)), Double(Int16.max)) / extent
      }
      return SIMD2(units(world.x, home.x), units(world.y, home.tile.y))
    }
    let quad = TileQuad(corners: corners)
    let content = DecodedTile.raster(source.image)
    var placed = [RenderTile(tile: home.tile, wrap: home.wrap, dataTile: home.tile, content: content, quad: quad)]
    // Other world copies the view shows at its own zoom, when they hold the tile.
    let viewZoom = Int(clamping: max(transform.camera.styleZoom, 0).rounded(.down))
    let covering = TileCovering(tileSize: 512, minZoom: viewZoom, maxZoom: viewZoom)
    var wraps = Set([home.wrap])
    for covered in covering.tiles(for: transform)
    where covered.wrap != 0 && covered.tile.z < home.tile.z
      && home.tile.ancestor(atZoom: covered.tile.z) == covered.tile
    {
      guard wraps.insert(covered.wrap).inserted else { continue }
      placed.append(RenderTile(tile: home.tile, wrap: covered.wrap, dataTile: home.tile, content: content, quad: quad))
    }
    return placed
  }

  /// The zoom of the tile holding the picture: the deepest at which the corners' bounds span
  /// at most one tile, so that their 16-bit tile units never overflow; nil when the picture's
  /// longer side spans 2 points or less on screen.
  static func placementZoom(_ corners: [Coordinate], transform: CameraTransform) -> Int? {
    let points = corners.map { Mercator.project(clamped($0), worldSize: 1) }
    let xs = points.map(\.x)
    let ys = points.map(\.y)
    let longest = max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
    guard longest * transform.worldSize > 2 else { return nil }
    return Int(clamping: min(max(-log2(longest), 0), 25).rounded(.down))
  }

  /// The tile at `zoom` nearest the centre of the corners' bounds (ties to the lower x, then
  /// y), with the world copy its x falls in: MapLibre's first tile of the bounds' cover.
  static func homeTile(_ corners: [Coordinate], zoom: Int) -> (tile: TileID, x: Int, wrap: Int) {
    let latitudes = corners.map { clamped($0).latitude }
    let longitudes = corners.map(\.longitude)
    let scale = exp2(Double(zoom))
    let northWest = Mercator.project(
      Coordinate(latitude: latitudes.max()!, longitude: longitudes.min()!), worldSize: scale)
    let southEast = Mercator.project(
      Coordinate(latitude: latitudes.min()!, longitude: longitudes.max()!), worldSize: scale)
    let centre = Mercator.project(
      Coordinate(
        latitude: (latitudes.min()! + latitudes.max()!) / 2, longitude: (longitudes.min()! + longitudes.max()!) / 2),
      worldSize: scale)
    let tiles = Int(clamping: scale)
    var best: (distance: Double, x: Int, y: Int)?
    let cx = Int(clamping: centre.x.rounded(.down))
    let cy = Int(clamping: centre.y.rounded(.down))
    for x in (cx - 1)...(cx + 1) {
      for y in max(cy - 1, 0)...min(cy + 1, tiles - 1) {
        // The tile must overlap the bounds.
        guard Double(x) < southEast.x, Double(x + 1) > northWest.x, Double(y) < southEast.y,
          Double(y + 1) > northWest.y
        else { continue }
        let dx = Double(x) + 0.5 - centre.x
        let dy = Double(y) + 0.5 - centre.y
        let candidate = (distance: dx * dx + dy * dy, x: x, y: y)
        if let current = best, (current.distance, current.x, current.y) <= (candidate.distance, x, y) { continue }
        best = candidate
      }
    }
    let chosen = best ?? (0, min(max(cx, 0), tiles - 1), min(max(cy, 0), tiles - 1))
    let wrap = Int(clamping: (Double(chosen.x) / scale).rounded(.down))
    let tile = TileID(z: zoom, x: chosen.x - wrap * tiles, y: chosen.y)
    return (tile, chosen.x, wrap)
  }

  static func clamped(_ coordinate: Coordinate) -> Coordinate {
    Coordinate(
      latitude: min(max(coordinate.latitude, -latitudeLimit), latitudeLimit), longitude: coordinate.longitude)
  }
}
