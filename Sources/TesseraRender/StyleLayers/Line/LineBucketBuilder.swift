import TesseraData
import TesseraStyle

/// Line layer geometry: lines and polygon outlines tessellated by ``LineTessellator``, in
/// bucket coordinates.
enum LineBucketBuilder {
  static func build(
    _ tile: VectorTile, layer: StyleLayer, zoom: Double, overscale: Double, patterns: PatternAtlas = .empty
  ) -> BucketGeometry {
    var paint = PaintAttributeWriter(
      bindings: LineLayerRenderer.paint, layer: layer, zoom: zoom, patterns: patterns)
    var mesh = MeshGeometry(floatsPerVertex: 8)
    let cap = LineTessellator.Cap(layer.value(LineProperties.cap, zoom: zoom))
    let miterLimit = layer.value(LineProperties.miterLimit, zoom: zoom)
    let roundLimit = layer.value(LineProperties.roundLimit, zoom: zoom)
    let features = BucketFeatures.select(
      tile, layer: layer, zoom: zoom, types: [.lineString, .polygon], sortKey: LineProperties.sortKey)
    for (feature, extent) in features {
      let scale = BucketGeometry.extent / Double(extent)
      let join = LineTessellator.Join(layer.value(LineProperties.join, zoom: zoom, feature: feature))
      var tessellator = LineTessellator()
      tessellator.cap = cap
      tessellator.miterLimit = miterLimit
      tessellator.roundLimit = roundLimit
      // 15 pixels of a 512-pixel tile, less when the tile is overzoomed (none beyond 16×).
      tessellator.sharpCornerOffset = overscale <= 16 ? 15 * (BucketGeometry.extent / 512) / overscale : 0
      let closed = feature.feature.type == .polygon
      for part in feature.feature.geometry {
        tessellator.add(
          part.map { (Double($0.x) * scale, Double($0.y) * scale) },
          join: join,
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

extension LineTessellator.Join {
  /// The tessellator's join for a style's `line-join`.
  init(_ join: LineJoin) {
    switch join {
    case .miter: self = .miter
    case .bevel: self = .bevel
    case .round: self = .round
    }
  }
}

extension LineTessellator.Cap {
  /// The tessellator's cap for a style's `line-cap`.
  init(_ cap: LineCap) {
    switch cap {
    case .butt: self = .butt
    case .square: self = .square
    case .round: self = .round
    }
  }
}
