import TesseraData
import TesseraGeo
import TesseraNumbers
import TesseraStyle

/// Identifies the geometry of one style layer built from one tile of its source.
package struct BucketKey: Sendable, Hashable, CustomStringConvertible {
  package let source: String
  /// The tile whose data the bucket holds (in its coordinates).
  package let tile: TileID
  /// The zoom filters and paint were evaluated at: the tile's own, or deeper when the tile is
  /// overzoomed.
  package let zoom: Int
  package let layer: String
  /// The style revision (a new style invalidates buckets).
  package let revision: Int
  /// For layers whose paint reads feature state: the states' version it was built with (a
  /// change of state invalidates their buckets); 0 for the others.
  package let stateVersion: Int
  /// For symbol layers: whether symbols anchored in the tile's buffer (outside its square)
  /// are kept, as MapLibre's tile mode keeps them (see ``TileCuts/tilePlacement``).
  package let keepsBufferSymbols: Bool

  package init(
    source: String, tile: TileID, zoom: Int, layer: String, revision: Int, stateVersion: Int = 0,
    keepsBufferSymbols: Bool = false
  ) {
    self.stateVersion = stateVersion
    self.keepsBufferSymbols = keepsBufferSymbols
    self.source = source
    self.tile = tile
    self.zoom = zoom
    self.layer = layer
    self.revision = revision
  }

  package var description: String {
    zoom == tile.z ? "\(layer) \(source) \(tile)" : "\(layer) \(source) \(tile)@z\(zoom)"
  }
}

/// One drawable mesh of a bucket: vertices (floats), optional per-vertex paint bytes, indices.
struct MeshGeometry: Sendable {
  var vertices: [Float] = []
  /// Floats per vertex.
  let floatsPerVertex: Int
  var paint: [UInt8] = []
  var paintStride = 0
  var indices: [UInt32] = []
  /// For extrusions: the highest vertex above the ground, in metres (0 for flat meshes).
  var maxHeight: Float = 0

  var vertexCount: Int { vertices.count / floatsPerVertex }

  /// Makes room for `vertices` more vertices and `indices` more indices, so that a bucket
  /// whose size its builder can estimate is not grown (copied, its fresh pages touched again)
  /// while it fills.
  mutating func reserveCapacity(vertices extraVertices: Int, indices extraIndices: Int) {
    vertices.reserveCapacity(vertices.count + extraVertices * floatsPerVertex)
    indices.reserveCapacity(indices.count + extraIndices)
  }

  /// Appends one vertex of seven floats (fill-extrusion's layout).
  @inline(__always)
  mutating func appendVertex(
    _ a: Float, _ b: Float, _ c: Float, _ d: Float, _ e: Float, _ f: Float, _ g: Float
  ) {
    vertices.append(a)
    vertices.append(b)
    vertices.append(c)
    vertices.append(d)
    vertices.append(e)
    vertices.append(f)
    vertices.append(g)
  }

  /// Appends one vertex of two floats (a fill's or an outline's position).
  @inline(__always)
  mutating func appendPoint(_ x: Float, _ y: Float) {
    vertices.append(x)
    vertices.append(y)
  }

  /// Appends one line segment's indices.
  @inline(__always)
  mutating func appendSegment(_ a: UInt32, _ b: UInt32) {
    indices.append(a)
    indices.append(b)
  }

  /// Appends one triangle's indices.
  @inline(__always)
  mutating func appendTriangle(_ a: UInt32, _ b: UInt32, _ c: UInt32) {
    indices.append(a)
    indices.append(b)
    indices.append(c)
  }

  var isEmpty: Bool { indices.isEmpty }
  var byteCount: Int { vertices.count * 4 + paint.count + indices.count * 4 }

  /// Whether every index names a vertex of the mesh and every vertex has its paint record:
  /// devices that draw from host memory read vertices where the indices say, unchecked.
  var isWellFormed: Bool {
    guard floatsPerVertex > 0, vertices.count % floatsPerVertex == 0 else { return false }
    guard paint.isEmpty || (paintStride > 0 && paint.count == vertexCount * paintStride) else { return false }
    let limit = UInt32(clamping: vertexCount)
    return indices.withUnsafeBufferPointer { indices in
      var largest: UInt32 = 0
      for index in indices { largest = max(largest, index) }
      return indices.isEmpty || largest < limit
    }
  }
}

/// The CPU geometry of a bucket, ready for upload.
struct BucketGeometry: Sendable {
  /// Bucket coordinates: every tile is scaled to this extent.
  static let extent = 8192.0

  var main: MeshGeometry
  var outline: MeshGeometry?
  /// Which paint properties are per-vertex (main part).
  var mask: PaintMask
  /// Which paint properties are per-vertex (outline part).
  var outlineMask: PaintMask = []

  var byteCount: Int { main.byteCount + (outline?.byteCount ?? 0) }
}

/// The features of a tile's source layer that a style layer draws, in drawing order: filtered,
/// of usable geometry, sorted by the layer's sort key when it has one.
enum BucketFeatures {
  static func select(
    _ tile: VectorTile, layer: StyleLayer, zoom: Double, types: Set<GeometryType>, sortKey: StyleProperty<Double?>?,
    states: FeatureStates = FeatureStates(), shapesComplexScripts: Bool = true
  ) -> [(TileFeature, Int)] {
    let sourceLayer = layer.sourceLayer ?? GeoJSONSource.layerName
    guard
      let data = tile.layers.first(where: { $0.name == sourceLayer })
        ?? (layer.sourceLayer == nil ? tile.layers.first : nil)
    else { return [] }
    var selected: [(TileFeature, Int, Double)] = []
    let source = layer.source ?? ""
    let readsStates = !states.isEmpty && states.hasStates(source: source, sourceLayer: layer.sourceLayer)
    let promotedID = states.idProperty(source: source, sourceLayer: layer.sourceLayer)
    let shared = TileFeatureLayer(
      layer: data, tile: tile.tile, promotedID: promotedID, shapesComplexScripts: shapesComplexScripts)
    var filter = TileLayerFilter(layer.filter, layer: data, zoom: zoom, shapesComplexScripts: shapesComplexScripts)
    // The types as bits (bit n for raw value n): every feature of the source layer is tested, by
    // every layer drawing from it, and a set hashes its element for each test.
    let typeBits = types.reduce(0) { $0 | 1 << $1.rawValue }
    for (index, feature) in data.features.enumerated() where typeBits & 1 << feature.type.rawValue != 0 {
      var adapted = TileFeature(shared, index: index)
      if readsStates, let id = adapted.identifier.flatMap(FeatureStates.name(of:)) {
        adapted.state = states.state(of: FeatureStates.Key(source: source, sourceLayer: layer.sourceLayer, id: id))
      }
      guard filter.accepts(index, adapted) else { continue }
      let key = sortKey.map { layer.value($0, zoom: zoom, feature: adapted) ?? 0 } ?? 0
      selected.append((adapted, data.extent, key))
    }
    if let sortKey, layer[sortKey].expression.constantValue != .null {
      selected = selected.enumerated().sorted { a, b in
        a.element.2 == b.element.2 ? a.offset < b.offset : a.element.2 < b.element.2
      }.map(\.element)
    }
    return selected.map { ($0.0, $0.1) }
  }
}
