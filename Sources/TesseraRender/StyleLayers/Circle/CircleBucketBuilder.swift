import TesseraData
import TesseraNumbers
import TesseraStyle

/// Circle and heatmap geometry: a quad (four corners, extrusion ±1) per point (and per vertex
/// of lines and polygons, as MapLibre draws them), bucket coordinates; `bindings` are the
/// layer type's per-vertex paint, `sortKey` orders the features.
enum CircleBucketBuilder {
  static func build(
    _ tile: VectorTile, layer: StyleLayer, zoom: Double, bindings: [PaintBinding] = CircleLayerRenderer.paint,
    sortKey: StyleProperty<Double?>? = CircleProperties.sortKey, states: FeatureStates = FeatureStates(),
    cancellation: RenderCancellation? = nil
  ) -> BucketGeometry {
    var paint = PaintAttributeWriter(bindings: bindings, layer: layer, zoom: zoom)
    var mesh = MeshGeometry(floatsPerVertex: 4)
    // As in MapLibre, every vertex of lines and polygons gets a circle too.
    let features = BucketFeatures.select(
      tile, layer: layer, zoom: zoom, types: [.point, .lineString, .polygon], sortKey: sortKey,
      states: states)
    for (feature, extent) in features {
      if cancellation?.isCancelled == true { break }
      let scale = BucketGeometry.extent / Double(extent)
      var count = 0
      for part in feature.feature.geometry {
        for point in part {
          // Points outside the tile (in the buffer) belong to the neighbour.
          guard point.x >= 0, point.y >= 0, Int(point.x) < extent, Int(point.y) < extent else { continue }
          let x = Float(Double(point.x) * scale)
          let y = Float(Double(point.y) * scale)
          let base = UInt32(mesh.vertexCount)
          for (ex, ey) in [(-1, -1), (1, -1), (1, 1), (-1, 1)] as [(Float, Float)] { mesh.vertices += [x, y, ex, ey] }
          mesh.indices += [base, base + 1, base + 2, base, base + 3, base + 2]
          count += 4
        }
      }
      paint.append(feature, vertexCount: count)
    }
    mesh.paint = paint.vertexBytes()
    mesh.paintStride = paint.stride
    return BucketGeometry(main: mesh, outline: nil, mask: paint.mask)
  }
}
