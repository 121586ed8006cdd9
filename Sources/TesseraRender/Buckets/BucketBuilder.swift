import TesseraData
import TesseraStyle

/// Builds the bucket of any layer type that has geometry.
enum BucketBuilder {
  /// Whether a layer of this type draws bucket geometry.
  static func hasBuckets(_ type: LayerType) -> Bool {
    switch type {
    case .fill, .line, .circle, .fillExtrusion: return true
    default: return false
    }
  }

  /// The geometry of `layer` from `tile`, evaluated at `zoom` (MapLibre units: the drawn
  /// tiles' zoom, `overscale` = 2^(zoom − the data tile's zoom) times deeper than the data).
  static func build(_ tile: VectorTile, layer: StyleLayer, zoom: Double, overscale: Double = 1) -> BucketGeometry {
    switch layer.type {
    case .fill: return FillBucketBuilder.build(tile, layer: layer, zoom: zoom)
    case .line: return LineBucketBuilder.build(tile, layer: layer, zoom: zoom, overscale: overscale)
    case .circle: return CircleBucketBuilder.build(tile, layer: layer, zoom: zoom)
    case .fillExtrusion: return FillExtrusionBucketBuilder.build(tile, layer: layer, zoom: zoom)
    default: return BucketGeometry(main: MeshGeometry(floatsPerVertex: 2), outline: nil, mask: [])
    }
  }
}
