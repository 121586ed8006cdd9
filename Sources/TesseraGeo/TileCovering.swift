import Foundation
import TesseraNumbers

/// A tile a camera needs, with the world copy it is drawn in.
public struct CoveredTile: Sendable, Hashable, CustomStringConvertible {
  /// The tile (at most the source's maximum zoom; deeper views overzoom it).
  public let tile: TileID
  /// Which copy of the world: 0 is the main one, −1 the copy west of it, 1 east, …
  public let wrap: Int

  public init(tile: TileID, wrap: Int) {
    self.tile = tile
    self.wrap = wrap
  }

  /// The world point of the tile's north-west corner in a world `worldSize` points wide,
  /// including the wrap offset.
  public func origin(worldSize: Double) -> WorldPoint {
    let size = worldSize / Double(tile.tilesPerSide)
    return WorldPoint(x: Double(tile.x) * size + Double(wrap) * worldSize, y: Double(tile.y) * size)
  }

  public var description: String { wrap == 0 ? "\(tile)" : "\(tile)@\(wrap)" }
}

/// Which tiles of a source a camera needs (MapLibre's "covering tiles", in Google's units).
///
/// The ideal zoom for a source of `tileSize`-point tiles is zoom + log2(256 / tileSize), floored
/// (vector, DEM) or rounded (raster), clamped to the source's range; above the source's maximum
/// its deepest tiles are overzoomed. Under tilt, a tile at distance d from the camera may use
/// zoom ideal − log2(d / D) rounded up (D the camera distance), so coarsening starts beyond 2·D
/// and a flat view keeps one zoom; the ground is covered only up to ``maxDistanceFactor`` × D
/// (4·D: at Google's 65° cap the visible ground ends at about 3.7·D; steeper raised tilts fade
/// into fog before that). A 1024×1024 view at 65° needs about 40 vector (512-point) tiles.
public struct TileCovering: Sendable {
  /// How the ideal zoom is rounded.
  public enum ZoomRounding: Sendable {
    /// floor: vector and DEM tiles.
    case floor
    /// round: raster tiles (MapLibre's rule).
    case round
  }

  /// Tile size of the source in points at the tile's own zoom (256 Google/raster, 512 MapLibre vector).
  public var tileSize: Double
  /// The source's zoom range.
  public var minZoom: Int
  public var maxZoom: Int
  public var rounding: ZoomRounding
  /// Ground farther than this many camera distances is not covered (only matters near the horizon).
  public var maxDistanceFactor: Double
  /// A safety bound on the result; subdivision stops before it is exceeded.
  public var maxTiles: Int
  /// Tiles nearer than this many camera distances get the ideal zoom; beyond, one level less
  /// per doubling of distance.
  public var lodDistanceFactor: Double = 1

  public init(
    tileSize: Double = 256, minZoom: Int = 0, maxZoom: Int = 22, rounding: ZoomRounding = .floor,
    maxDistanceFactor: Double = 4, maxTiles: Int = 512
  ) {
    self.tileSize = tileSize
    self.minZoom = minZoom
    self.maxZoom = maxZoom
    self.rounding = rounding
    self.maxDistanceFactor = maxDistanceFactor
    self.maxTiles = maxTiles
  }

  /// The zoom of the tiles drawn at the view's centre (before the source's range is applied
  /// this can exceed maxZoom: then tiles at maxZoom are overzoomed).
  public func idealZoom(cameraZoom: Double) -> Int {
    let zoom = cameraZoom + log2(256 / tileSize)
    let level = rounding == .floor ? Foundation.floor(zoom + 1e-9) : zoom.rounded()
    return Int(clamping: level)
  }

  /// The tiles `transform` needs, nearest to the camera first.
  public func tiles(for transform: CameraTransform) -> [CoveredTile] {
    let ideal = min(max(idealZoom(cameraZoom: transform.camera.zoom), minZoom), maxZoom)
    let ground = VisibleGround(transform: transform, maxDistanceFactor: maxDistanceFactor)
    guard ground.polygon.count >= 3 else { return [] }
    // Tile sizes are measured in world points at the camera's zoom.
    let worldSize = transform.worldSize
    let xs = ground.polygon.map(\.x)
    let firstWrap = Int(clamping: Foundation.floor(xs.min()! / worldSize))
    let lastWrap = Int(clamping: Foundation.floor(xs.max()! / worldSize))
    var result: [(CoveredTile, Double)] = []
    var stack: [(TileID, Int)] = (firstWrap...lastWrap).reversed().map { (TileID(z: 0, x: 0, y: 0), $0) }
    let lodDistance = lodDistanceFactor * transform.cameraDistance
    while let (tile, wrap) = stack.popLast() {
      let covered = CoveredTile(tile: tile, wrap: wrap)
      let size = worldSize / Double(tile.tilesPerSide)
      let origin = covered.origin(worldSize: worldSize)
      let rect = (minX: origin.x, minY: origin.y, maxX: origin.x + size, maxY: origin.y + size)
      guard ground.intersects(rect) else { continue }
      let distance = ground.cameraDistance(to: rect)
      let desired = Double(ideal) - max(0, log2(distance / lodDistance))
      let accept =
        tile.z >= ideal || (tile.z >= minZoom && Double(tile.z) >= desired.rounded(.up))
        || result.count + stack.count + 4 > maxTiles
      if accept {
        if tile.z >= minZoom { result.append((covered, distance)) }
        continue
      }
      for child in tile.children { stack.append((child, wrap)) }
    }
    return result.sorted { $0.1 < $1.1 }.map(\.0)
  }
}

/// The part of the ground plane a camera sees, as a convex polygon in world points (x not
/// wrapped), plus the camera's position for distance tests.
struct VisibleGround {
  let polygon: [WorldPoint]
  let camera: (x: Double, y: Double, height: Double)

  init(transform: CameraTransform, maxDistanceFactor: Double) {
    let d = transform.cameraDistance
    let width = transform.viewport.width
    let height = transform.viewport.height
    // The highest screen row to cover: the top edge, or the row whose ground lies at the
    // maximum distance (when the view reaches that far or beyond the horizon).
    var top = 0.0
    let maxDepth = d * maxDistanceFactor
    if transform.sinTilt > 1e-9 {
      let v = (d - maxDepth) / transform.sinTilt
      let farRow = transform.center.y + v * transform.cosTilt * d / maxDepth
      top = max(top, farRow)
    }
    var points: [WorldPoint] = []
    if top < height {
      for corner in [
        ScreenPoint(x: 0, y: top), ScreenPoint(x: width, y: top), ScreenPoint(x: width, y: height),
        ScreenPoint(x: 0, y: height),
      ] {
        if let point = transform.worldPoint(for: corner) { points.append(point) }
      }
    }
    polygon = points
    let target = transform.targetWorld
    camera = (
      target.x - d * transform.sinTilt * transform.sinBearing,
      target.y + d * transform.sinTilt * transform.cosBearing,
      d * transform.cosTilt
    )
  }

  /// Whether an axis-aligned rectangle overlaps the polygon (separating axis test).
  func intersects(_ rect: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> Bool {
    let xs = polygon.map(\.x)
    let ys = polygon.map(\.y)
    // Rectangles that only touch the polygon do not count.
    if xs.max()! <= rect.minX || xs.min()! >= rect.maxX || ys.max()! <= rect.minY || ys.min()! >= rect.maxY {
      return false
    }
    let corners = [
      (rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.maxX, rect.maxY), (rect.minX, rect.maxY),
    ]
    for index in polygon.indices {
      let a = polygon[index]
      let b = polygon[(index + 1) % polygon.count]
      // The polygon is convex; find the side its other vertices are on, then check whether
      // all rectangle corners are on the opposite side.
      let normal = (x: a.y - b.y, y: b.x - a.x)
      let inside = polygon.map { ($0.x - a.x) * normal.x + ($0.y - a.y) * normal.y }
      let sign: Double = inside.reduce(0, +) >= 0 ? 1 : -1
      if corners.allSatisfy({ (($0.0 - a.x) * normal.x + ($0.1 - a.y) * normal.y) * sign <= 0 }) {
        return false
      }
    }
    return true
  }

  /// The 3D distance from the camera to the nearest point of a ground rectangle, in points.
  func cameraDistance(to rect: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> Double {
    let dx = max(rect.minX - camera.x, 0, camera.x - rect.maxX)
    let dy = max(rect.minY - camera.y, 0, camera.y - rect.maxY)
    return (dx * dx + dy * dy + camera.height * camera.height).squareRoot()
  }
}
