import TesseraData
import TesseraStyle

/// Line layer geometry: lines and polygon outlines tessellated by ``LineTessellator``, in
/// bucket coordinates (extent 8192).
enum LineBucketBuilder {
  static func build(_ tile: VectorTile, layer: StyleLayer, zoom: Double, overscale: Double) -> BucketGeometry {
    var paint = PaintAttributeWriter(bindings: PaintBinding.line, layer: layer, zoom: zoom)
    var mesh = MeshGeometry(floatsPerVertex: 8)
    let cap = LineTessellator.Cap(rawValue: layer.property("line-cap").evaluate(zoom: zoom).string ?? "butt") ?? .butt
    let miterLimit = layer.property("line-miter-limit").number(zoom: zoom)
    let roundLimit = layer.property("line-round-limit").number(zoom: zoom)
    let features = BucketFeatures.select(
      tile, layer: layer, zoom: zoom, types: [.lineString, .polygon], sortKey: "line-sort-key")
    for (feature, extent) in features {
      let scale = FillBucketBuilder.extent / Double(extent)
      let joinName = layer.property("line-join").evaluate(zoom: zoom, feature: feature).string ?? "miter"
      var tessellator = LineTessellator()
      tessellator.cap = cap
      tessellator.miterLimit = miterLimit
      tessellator.roundLimit = roundLimit
      // 15 pixels of a 512-pixel tile, less when the tile is overzoomed (none beyond 16×).
      tessellator.sharpCornerOffset = overscale <= 16 ? 15 * (FillBucketBuilder.extent / 512) / overscale : 0
      let closed = feature.feature.type == .polygon
      for part in feature.feature.geometry {
        tessellator.add(
          part.map { (Double($0.x) * scale, Double($0.y) * scale) },
          join: LineTessellator.Join(rawValue: joinName) ?? .miter,
          closed: closed)
      }
      let base = UInt32(mesh.vertexCount)
      mesh.vertices += tessellator.vertexData
      mesh.indices += tessellator.indices.map { $0 + base }
      paint.append(feature, vertexCount: tessellator.vertices.count)
    }
    mesh.paint = paint.bytes
    mesh.paintStride = paint.stride
    return BucketGeometry(main: mesh, outline: nil, mask: paint.mask)
  }
}
