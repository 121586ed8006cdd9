import TesseraData
import TesseraNumbers
import TesseraStyle

/// Fill layer geometry: polygons triangulated with ``Earcut`` (positions in bucket
/// coordinates) and, for antialiasing, their rings as GL line segments.
enum FillBucketBuilder {
  static func build(
    _ tile: VectorTile, layer: StyleLayer, zoom: Double, patterns: PatternAtlas,
    states: FeatureStates = FeatureStates(), cancellation: RenderCancellation? = nil
  ) -> BucketGeometry {
    var triangles = PaintAttributeWriter(
      bindings: FillLayerRenderer.paint, layer: layer, zoom: zoom, patterns: patterns)
    var outlines = PaintAttributeWriter(
      bindings: FillLayerRenderer.outlineBindings(layer), layer: layer, zoom: zoom, patterns: patterns)
    var main = MeshGeometry(floatsPerVertex: 2)
    var outline = MeshGeometry(floatsPerVertex: 2)
    let features = BucketFeatures.select(
      tile, layer: layer, zoom: zoom, types: [.polygon, .lineString], sortKey: FillProperties.sortKey,
      states: states)
    // A ring point is a vertex of both meshes: about 3 triangle indices, 2 segment indices.
    let points = features.reduce(0) { sum, selected in selected.0.feature.geometry.reduce(sum) { $0 + $1.count } }
    main.reserveCapacity(vertices: points, indices: 3 * points)
    outline.reserveCapacity(vertices: points, indices: 2 * points)
    for (feature, extent) in features {
      if cancellation?.isCancelled == true { break }
      let scale = BucketGeometry.extent / Double(extent)
      var mainCount = 0
      var outlineCount = 0
      for polygon in feature.feature.fillPolygons {
        var points: [(Double, Double)] = []
        var holeStarts: [Int] = []
        for (index, ring) in polygon.enumerated() {
          if index > 0 { holeStarts.append(points.count) }
          for point in ring { points.append((Double(point.x) * scale, Double(point.y) * scale)) }
          // Outline segments of the ring as pairs of vertices (the closing point is not repeated).
          let unique = ring.count > 1 && ring.first == ring.last ? ring.dropLast() : ring[...]
          let outlineStart = UInt32(outline.vertexCount)
          for point in unique { outline.appendPoint(Float(Double(point.x) * scale), Float(Double(point.y) * scale)) }
          let count = UInt32(unique.count)
          for step in 0..<count {
            outline.appendSegment(outlineStart + step, outlineStart + (step + 1) % count)
          }
          outlineCount += unique.count
        }
        let base = UInt32(main.vertexCount)
        for point in points { main.appendPoint(Float(point.0), Float(point.1)) }
        for index in Earcut.triangulate(points, holeStarts: holeStarts) { main.indices.append(base + UInt32(index)) }
        mainCount += points.count
      }
      triangles.append(feature, vertexCount: mainCount)
      outlines.append(feature, vertexCount: outlineCount)
    }
    main.paint = triangles.vertexBytes()
    main.paintStride = triangles.stride
    outline.paint = outlines.vertexBytes()
    outline.paintStride = outlines.stride
    return BucketGeometry(main: main, outline: outline, mask: triangles.mask, outlineMask: outlines.mask)
  }
}
