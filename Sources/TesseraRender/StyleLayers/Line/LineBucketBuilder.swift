import TesseraData
import TesseraNumbers
import TesseraStyle

/// Line layer geometry: lines and polygon outlines tessellated by ``LineTessellator``, in
/// bucket coordinates.
enum LineBucketBuilder {
  static func build(
    _ tile: VectorTile, layer: StyleLayer, zoom: Double, overscale: Double, patterns: PatternAtlas = .empty,
    states: FeatureStates = FeatureStates(), cancellation: RenderCancellation? = nil
  ) -> BucketGeometry {
    var paint = PaintAttributeWriter(
      bindings: LineLayerRenderer.paint, layer: layer, zoom: zoom, patterns: patterns)
    var mesh = MeshGeometry(floatsPerVertex: 8)
    let cap = LineTessellator.Cap(layer.value(LineProperties.cap, zoom: zoom))
    let miterLimit = layer.value(LineProperties.miterLimit, zoom: zoom)
    let roundLimit = layer.value(LineProperties.roundLimit, zoom: zoom)
    let features = BucketFeatures.select(
      tile, layer: layer, zoom: zoom, types: [.lineString, .polygon], sortKey: LineProperties.sortKey,
      states: states)
    let measuresProgress = LineLayerRenderer.drawsGradient(layer, zoom: zoom)
    // One tessellator for the whole bucket: its vertices and indices are the mesh's, grown
    // once rather than per feature and copied again into the mesh.
    var tessellator = LineTessellator()
    tessellator.cap = cap
    tessellator.miterLimit = miterLimit
    tessellator.roundLimit = roundLimit
    // 15 pixels of a 512-pixel tile, less when the tile is overzoomed (none beyond 16×).
    tessellator.sharpCornerOffset = overscale <= 16 ? 15 * (BucketGeometry.extent / 512) / overscale : 0
    tessellator.reserveCapacity(
      points: features.reduce(0) { sum, selected in selected.0.feature.geometry.reduce(sum) { $0 + $1.count } })
    var progress: [(parts: [(vertices: Range<Int>, length: Double)], feature: TileFeature)] = []
    for (feature, extent) in features {
      if cancellation?.isCancelled == true { break }
      let scale = BucketGeometry.extent / Double(extent)
      let join = LineTessellator.Join(layer.value(LineProperties.join, zoom: zoom, feature: feature))
      let closed = feature.feature.type == .polygon
      let firstVertex = tessellator.vertexCount
      var parts: [(vertices: Range<Int>, length: Double)] = []
      for part in feature.feature.geometry {
        let points = part.map { (Double($0.x) * scale, Double($0.y) * scale) }
        let first = tessellator.vertexCount
        tessellator.add(points, join: join, closed: closed)
        if measuresProgress { parts.append((first..<tessellator.vertexCount, LineBucketBuilder.length(points))) }
      }
      if !parts.isEmpty { progress.append((parts, feature)) }
      paint.append(feature, vertexCount: tessellator.vertexCount - firstVertex)
    }
    mesh.vertices = tessellator.vertexData
    for (parts, feature) in progress { LineBucketBuilder.storeProgress(&mesh.vertices, parts: parts, feature: feature) }
    mesh.indices = tessellator.indices
    mesh.paint = paint.vertexBytes()
    mesh.paintStride = paint.stride
    return BucketGeometry(main: mesh, outline: nil, mask: paint.mask)
  }
}

extension LineBucketBuilder {
  /// The length of a polyline, bucket units.
  static func length(_ points: [(Double, Double)]) -> Double {
    var total = 0.0
    for index in points.indices.dropFirst() {
      let (dx, dy) = (points[index].0 - points[index - 1].0, points[index].1 - points[index - 1].1)
      total += (dx * dx + dy * dy).squareRoot()
    }
    return total
  }

  /// Replaces each vertex's distance along its part with its progress along the whole line:
  /// the part's place in it (`mapbox_clip_start` … `mapbox_clip_end`, from GeoJSON sources
  /// with `lineMetrics`; else the part is the whole line) scaled by the distance travelled.
  static func storeProgress(
    _ vertexData: inout [Float], parts: [(vertices: Range<Int>, length: Double)], feature: TileFeature
  ) {
    let start = feature.property(GeoJSONSource.clipStartKey)?.number ?? 0
    let end = feature.property(GeoJSONSource.clipEndKey)?.number ?? 1
    let floats = LineTessellator.floatsPerVertex
    for part in parts {
      for vertex in part.vertices {
        let distance = Double(vertexData[vertex * floats + floats - 1])
        let fraction = part.length > 0 ? min(max(distance / part.length, 0), 1) : 0
        vertexData[vertex * floats + floats - 1] = Float(start + (end - start) * fraction)
      }
    }
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
