import TesseraGeo
import TesseraImage
import TesseraNumbers

/// Which stored tile serves a requested one: overzoom above the source's maximum zoom, parent
/// fallback while a tile is missing.
package struct TilePyramid: Sendable, Equatable {
  package let minZoom: Int
  package let maxZoom: Int

  package init(minZoom: Int, maxZoom: Int) {
    self.minZoom = minZoom
    self.maxZoom = maxZoom
  }

  package init(metadata: TileSourceMetadata) {
    self.init(minZoom: metadata.minZoom, maxZoom: metadata.maxZoom)
  }

  /// The tile to fetch for `tile`: itself within the range, its ancestor at the maximum zoom
  /// above it (overzoom), nil below the minimum zoom.
  package func dataTile(for tile: TileID) -> TileID? {
    guard tile.z >= minZoom else { return nil }
    return tile.z > maxZoom ? tile.ancestor(atZoom: maxZoom) : tile
  }

  /// The nearest ancestor of `tile` (not itself) for which `available` has a decoded tile, down
  /// to the minimum zoom: what is drawn while `tile` is missing.
  package func fallback(for tile: TileID, available: (TileID) -> DecodedTile?) -> (TileID, DecodedTile)? {
    var zoom = min(tile.z, maxZoom + 1) - 1
    while zoom >= minZoom {
      let ancestor = tile.ancestor(atZoom: zoom)
      if let decoded = available(ancestor) { return (ancestor, decoded) }
      zoom -= 1
    }
    return nil
  }
}

/// Cutting a tile down to a descendant's area (overzoom and parent fallback).
package enum TileOverzoom {
  /// The part of `tile` (decoded for `parent`) covering `child`, scaled to a full tile.
  ///
  /// Vector geometry is clipped to the child's area plus `buffer` (in child tile units of an
  /// extent-4096 tile) and scaled by 2^Δz; images are cropped to the child's area (the GPU scales
  /// them up), at least one pixel.
  package static func tile(_ tile: DecodedTile, from parent: TileID, to child: TileID, buffer: Int = 128) -> DecodedTile
  {
    guard child.z > parent.z else { return tile }
    let dz = child.z - parent.z
    let column = child.x - (parent.x << dz)
    let row = child.y - (parent.y << dz)
    switch tile {
    case .vector(let vector):
      return .vector(
        VectorTile(layers: vector.layers.map { layer in clip(layer, dz: dz, column: column, row: row, buffer: buffer) })
      )
    case .raster(let image):
      return .raster(crop(image, dz: dz, column: column, row: row))
    case .dem(let dem):
      return .dem(crop(dem, dz: dz, column: column, row: row))
    }
  }

  static func clip(_ layer: VectorTileLayer, dz: Int, column: Int, row: Int, buffer: Int) -> VectorTileLayer {
    let extent = Int64(layer.extent)
    let scale = Int64(1) << dz
    // The child's area in parent coordinates (scaled by 2^dz to stay exact), with the buffer.
    let margin = Int64(buffer) * extent / 4096
    let box = ClipBox(
      minX: Int64(column) * extent - margin, minY: Int64(row) * extent - margin,
      maxX: Int64(column + 1) * extent + margin, maxY: Int64(row + 1) * extent + margin)
    var result = layer
    result.features = layer.features.compactMap { feature in
      // Work in parent coordinates × 2^dz so the child's area is integral.
      let scaled = feature.geometry.map { part in part.map { (Int64($0.x) * scale, Int64($0.y) * scale) } }
      var parts: [[(Int64, Int64)]]
      switch feature.type {
      case .point: parts = [scaled.flatMap { $0 }.filter(box.contains)]
      case .lineString: parts = scaled.flatMap { box.clipLine($0) }
      case .polygon: parts = scaled.map { box.clipRing($0) }.filter { $0.count >= 4 }
      case .unknown: parts = []
      }
      parts = parts.filter { !$0.isEmpty }
      guard !parts.isEmpty else { return nil }
      let offsetX = Int64(column) * extent
      let offsetY = Int64(row) * extent
      var clipped = feature
      clipped.geometry = parts.map { part in
        part.map { TilePoint(x: Int32(clamping: $0.0 - offsetX), y: Int32(clamping: $0.1 - offsetY)) }
      }
      return clipped
    }
    return result
  }

  static func crop(_ image: RGBAImage, dz: Int, column: Int, row: Int) -> RGBAImage {
    let (x, y, size) = cropRegion(width: image.width, dz: dz, column: column, row: row)
    var pixels = [UInt8]()
    pixels.reserveCapacity(size * size * 4)
    for line in y..<min(y + size, image.height) {
      let start = (line * image.width + x) * 4
      pixels += image.pixels[start..<start + min(size, image.width - x) * 4]
    }
    return RGBAImage(
      width: min(size, image.width - x), height: min(size, image.height - y), pixels: pixels, alpha: image.alpha)
  }

  static func crop(_ dem: DEMTile, dz: Int, column: Int, row: Int) -> DEMTile {
    let (x, y, size) = cropRegion(width: dem.width, dz: dz, column: column, row: row)
    var heights = [Float]()
    heights.reserveCapacity(size * size)
    for line in y..<min(y + size, dem.height) {
      let start = line * dem.width + x
      heights += dem.heights[start..<start + min(size, dem.width - x)]
    }
    return DEMTile(width: min(size, dem.width - x), height: min(size, dem.height - y), heights: heights)
  }

  private static func cropRegion(width: Int, dz: Int, column: Int, row: Int) -> (Int, Int, Int) {
    let size = max(width >> dz, 1)
    let step = Double(width) / Double(1 << dz)
    return (
      min(Int(clamping: Double(column) * step), width - 1), min(Int(clamping: Double(row) * step), width - 1), size
    )
  }
}

/// An axis-aligned clipping rectangle in 64-bit integer coordinates.
struct ClipBox {
  let minX: Int64
  let minY: Int64
  let maxX: Int64
  let maxY: Int64

  func contains(_ point: (Int64, Int64)) -> Bool {
    point.0 >= minX && point.0 <= maxX && point.1 >= minY && point.1 <= maxY
  }

  /// A polyline clipped to the box: the pieces inside (Liang–Barsky per segment).
  func clipLine(_ line: [(Int64, Int64)]) -> [[(Int64, Int64)]] {
    var pieces: [[(Int64, Int64)]] = []
    var current: [(Int64, Int64)] = []
    for index in 0..<max(line.count - 1, 0) {
      guard let (a, b) = clipSegment(line[index], line[index + 1]) else {
        if current.count >= 2 { pieces.append(current) }
        current = []
        continue
      }
      if let last = current.last, last == a {
        current.append(b)
      } else {
        if current.count >= 2 { pieces.append(current) }
        current = [a, b]
      }
      // A segment that left the box ends the piece.
      if b != line[index + 1] {
        pieces.append(current)
        current = []
      }
    }
    if current.count >= 2 { pieces.append(current) }
    return pieces
  }

  /// A polyline clipped to the box like ``clipLine(_:)``, each piece with the distances along
  /// the whole line (in its units) at which it starts and ends.
  func clipLineMeasured(_ line: [(Int64, Int64)]) -> [(points: [(Int64, Int64)], start: Double, end: Double)] {
    var pieces: [(points: [(Int64, Int64)], start: Double, end: Double)] = []
    var current: [(Int64, Int64)] = []
    var start = 0.0
    var end = 0.0
    var travelled = 0.0
    func finish() {
      if current.count >= 2 { pieces.append((current, start, end)) }
      current = []
    }
    for index in 0..<max(line.count - 1, 0) {
      let (a, b) = (line[index], line[index + 1])
      let length = (Double(b.0 - a.0) * Double(b.0 - a.0) + Double(b.1 - a.1) * Double(b.1 - a.1)).squareRoot()
      defer { travelled += length }
      guard let (t0, t1) = clipParameters(a, b), let (p, q) = clipSegment(a, b) else {
        finish()
        continue
      }
      if let last = current.last, last == p {
        current.append(q)
      } else {
        finish()
        current = [p, q]
        start = travelled + length * t0
      }
      end = travelled + length * t1
      if q != b { finish() }
    }
    finish()
    return pieces
  }

  private func clipSegment(_ a: (Int64, Int64), _ b: (Int64, Int64)) -> ((Int64, Int64), (Int64, Int64))? {
    guard let (t0, t1) = clipParameters(a, b) else { return nil }
    let dx = Double(b.0 - a.0)
    let dy = Double(b.1 - a.1)
    func at(_ t: Double) -> (Int64, Int64) {
      t == 0 ? a : t == 1 ? b : (a.0 + Int64(clamping: (dx * t).rounded()), a.1 + Int64(clamping: (dy * t).rounded()))
    }
    return (at(t0), at(t1))
  }

  /// Where segment ab enters and leaves the box (Liang–Barsky parameters, 0…1), nil outside.
  private func clipParameters(_ a: (Int64, Int64), _ b: (Int64, Int64)) -> (Double, Double)? {
    var t0 = 0.0
    var t1 = 1.0
    let dx = Double(b.0 - a.0)
    let dy = Double(b.1 - a.1)
    for (p, q) in [
      (-dx, Double(a.0 - minX)), (dx, Double(maxX - a.0)), (-dy, Double(a.1 - minY)), (dy, Double(maxY - a.1)),
    ] {
      if p == 0 {
        if q < 0 { return nil }
        continue
      }
      let r = q / p
      if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
      if t0 > t1 { return nil }
    }
    return (t0, t1)
  }

  /// A closed ring clipped to the box (Sutherland–Hodgman), closed again; winding is kept.
  func clipRing(_ ring: [(Int64, Int64)]) -> [(Int64, Int64)] {
    var points = ring
    if let first = points.first, let last = points.last, first == last { points.removeLast() }
    for edge in 0..<4 {
      guard !points.isEmpty else { return [] }
      func inside(_ p: (Int64, Int64)) -> Bool {
        switch edge {
        case 0: return p.0 >= minX
        case 1: return p.0 <= maxX
        case 2: return p.1 >= minY
        default: return p.1 <= maxY
        }
      }
      func intersection(_ p: (Int64, Int64), _ q: (Int64, Int64)) -> (Int64, Int64) {
        let bound = [minX, maxX, minY, maxY][edge]
        if edge < 2 {
          let t = Double(bound - p.0) / Double(q.0 - p.0)
          return (bound, p.1 + Int64(clamping: (Double(q.1 - p.1) * t).rounded()))
        }
        let t = Double(bound - p.1) / Double(q.1 - p.1)
        return (p.0 + Int64(clamping: (Double(q.0 - p.0) * t).rounded()), bound)
      }
      var output: [(Int64, Int64)] = []
      var previous = points[points.count - 1]
      for point in points {
        if inside(point) {
          if !inside(previous) { output.append(intersection(previous, point)) }
          output.append(point)
        } else if inside(previous) {
          output.append(intersection(previous, point))
        }
        previous = point
      }
      points = output
    }
    guard let first = points.first else { return [] }
    return points + [first]
  }
}
