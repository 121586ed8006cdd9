import TesseraData
import TesseraNumbers
import TesseraStyle

/// Fill-extrusion geometry as MapLibre builds it: for every polygon a wall quad per ring edge
/// (bottom and top vertices, the edge's outward normal) and the roof triangulated with
/// ``Earcut``, in bucket coordinates.
///
/// Seven floats per vertex: x, y, normal (x, y, z; walls horizontal, roofs straight up), top
/// (1 for vertices at the height, 0 at the base) and the distance along the ring's edges.
/// Edges lying on the tile's clip boundary (outside the tile, along its border) get no wall, so
/// buildings cut by tile edges show no inner walls; polygons entirely outside the tile are left
/// to the tile that holds them. Features go into the mesh in Z order of where they stand
/// (``spatiallyOrdered(_:)``), not in the tile's order.
enum FillExtrusionBucketBuilder {
  static let floatsPerVertex = 7

  /// The highest roof in metres over the zooms the bucket is drawn at (`zoom` to `zoom` + 1):
  /// from the features' values when the height is data-driven, else sampled along the zoom
  /// curve with a tenth of headroom.
  static func maxHeight(layer: StyleLayer, zoom: Double, paint: PaintAttributeWriter) -> Float {
    let property = layer[FillExtrusionProperties.height]
    if property.isDataDriven { return max(paint.largest(FillExtrusionProperties.height) ?? 0, 0) }
    let samples = (0...8).map { property.number(zoom: zoom + Double($0) / 8) }
    return Float(max(samples.max() ?? 0, 0) * 1.1)
  }

  static func build(
    _ tile: VectorTile, layer: StyleLayer, zoom: Double, patterns: PatternAtlas = .empty,
    states: FeatureStates = FeatureStates(), cancellation: RenderCancellation? = nil
  ) -> BucketGeometry {
    var paint = PaintAttributeWriter(
      bindings: FillExtrusionLayerRenderer.paint, layer: layer, zoom: zoom, patterns: patterns)
    var mesh = MeshGeometry(floatsPerVertex: floatsPerVertex)
    let extent = BucketGeometry.extent
    let features = spatiallyOrdered(
      BucketFeatures.select(tile, layer: layer, zoom: zoom, types: [.polygon], sortKey: nil, states: states))
    // Each ring point makes a wall's 4 vertices and 6 indices and a roof vertex with about 3.
    let points = features.reduce(0) { sum, selected in selected.0.feature.geometry.reduce(sum) { $0 + $1.count } }
    mesh.reserveCapacity(vertices: 5 * points, indices: 9 * points)
    for (feature, tileExtent) in features {
      if cancellation?.isCancelled == true { break }
      let scale = extent / Double(tileExtent)
      let start = mesh.vertexCount
      for polygon in feature.feature.polygons {
        let rings = polygon.map { ring in ring.map { (Double($0.x) * scale, Double($0.y) * scale) } }
        guard let outer = rings.first, !outer.isEmpty, !isEntirelyOutside(outer, extent: extent) else { continue }
        // Walls.
        for ring in rings {
          var edgeDistance = 0.0
          for index in 1..<max(ring.count, 1) {
            let p1 = ring[index]
            let p2 = ring[index - 1]
            guard !isBoundaryEdge(p1, p2, extent: extent) else { continue }
            let dx = p1.0 - p2.0
            let dy = p1.1 - p2.1
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 else { continue }
            // perp() of (dx, dy) is (−dy, dx), normalised.
            let normal = (Float(-dy / length), Float(dx / length))
            if edgeDistance + length > 32768 { edgeDistance = 0 }
            let base = UInt32(mesh.vertexCount)
            let start = Float(edgeDistance)
            let end = Float(edgeDistance + length)
            mesh.appendVertex(Float(p1.0), Float(p1.1), normal.0, normal.1, 0, 0, start)
            mesh.appendVertex(Float(p1.0), Float(p1.1), normal.0, normal.1, 0, 1, start)
            mesh.appendVertex(Float(p2.0), Float(p2.1), normal.0, normal.1, 0, 0, end)
            mesh.appendVertex(Float(p2.0), Float(p2.1), normal.0, normal.1, 0, 1, end)
            edgeDistance += length
            mesh.appendTriangle(base, base + 2, base + 1)
            mesh.appendTriangle(base + 1, base + 2, base + 3)
          }
        }
        // Roof.
        var points: [(Double, Double)] = []
        var holeStarts: [Int] = []
        for (index, ring) in rings.enumerated() {
          if index > 0 { holeStarts.append(points.count) }
          points += ring
        }
        let roofBase = UInt32(mesh.vertexCount)
        for point in points { mesh.appendVertex(Float(point.0), Float(point.1), 0, 0, 1, 1, 0) }
        let triangles = Earcut.triangulate(points, holeStarts: holeStarts)
        // MapLibre flips the roof's winding (for its back-face culling).
        for index in stride(from: 0, to: triangles.count, by: 3) {
          mesh.appendTriangle(
            roofBase + UInt32(triangles[index]), roofBase + UInt32(triangles[index + 2]),
            roofBase + UInt32(triangles[index + 1]))
        }
      }
      paint.append(feature, vertexCount: mesh.vertexCount - start)
    }
    mesh.paint = paint.vertexBytes()
    mesh.paintStride = paint.stride
    mesh.maxHeight = maxHeight(layer: layer, zoom: zoom, paint: paint)
    return BucketGeometry(main: mesh, outline: nil, mask: paint.mask)
  }

  /// `features` in Z order (a Morton code of 16 bits per axis) of the centres of their bounding
  /// boxes over the tile and a tile's width around it, features at one code in tile order.
  /// Extrusions are drawn with the depth test (and translucent ones coloured once per pixel),
  /// so their order does not change what a frame shows; in this order consecutive triangles
  /// come from neighbouring buildings, so the runs a draw skips outside the view
  /// (``MeshChunks``) are compact and a view of part of a tile shades the vertices of about
  /// that part, where the tile's order (by identifier, scattered over the tile) shades most.
  static func spatiallyOrdered(_ features: [(TileFeature, Int)]) -> [(TileFeature, Int)] {
    guard features.count > 1 else { return features }
    let codes = features.map { feature, extent -> UInt32 in
      var minX = Int32.max
      var minY = Int32.max
      var maxX = Int32.min
      var maxY = Int32.min
      for ring in feature.feature.geometry {
        for point in ring {
          minX = min(minX, point.x)
          maxX = max(maxX, point.x)
          minY = min(minY, point.y)
          maxY = max(maxY, point.y)
        }
      }
      guard minX <= maxX else { return 0 }
      /// A centre coordinate, −extent…2·extent, as 16 bits.
      func quantized(_ low: Int32, _ high: Int32) -> UInt32 {
        let centre = (Double(low) + Double(high)) / 2
        let unit = (centre + Double(extent)) / Double(3 * max(extent, 1))
        return UInt32(clamping: min(max(unit, 0), 1) * 65535)
      }
      return morton(quantized(minX, maxX), quantized(minY, maxY))
    }
    return features.indices.sorted { a, b in codes[a] == codes[b] ? a < b : codes[a] < codes[b] }.map { features[$0] }
  }

  /// The bits of `x` and `y` (16 each) interleaved, x in the even bits.
  static func morton(_ x: UInt32, _ y: UInt32) -> UInt32 {
    func spread(_ value: UInt32) -> UInt32 {
      var v = value & 0xFFFF
      v = (v | (v << 8)) & 0x00FF_00FF
      v = (v | (v << 4)) & 0x0F0F_0F0F
      v = (v | (v << 2)) & 0x3333_3333
      v = (v | (v << 1)) & 0x5555_5555
      return v
    }
    return spread(x) | (spread(y) << 1)
  }

  /// An edge along the tile's border, outside it: the cut of a polygon clipped to the tile's buffer.
  static func isBoundaryEdge(_ a: (Double, Double), _ b: (Double, Double), extent: Double) -> Bool {
    (a.0 == b.0 && (a.0 < 0 || a.0 > extent)) || (a.1 == b.1 && (a.1 < 0 || a.1 > extent))
  }

  static func isEntirelyOutside(_ ring: [(Double, Double)], extent: Double) -> Bool {
    ring.allSatisfy { $0.0 < 0 } || ring.allSatisfy { $0.0 > extent } || ring.allSatisfy { $0.1 < 0 }
      || ring.allSatisfy { $0.1 > extent }
  }
}
