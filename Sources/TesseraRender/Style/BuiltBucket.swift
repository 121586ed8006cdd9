import TesseraNumbers

/// A bucket's finished geometry with the culling chunks of its meshes (``MeshChunks``), made by
/// the thread that built it: uploading, on the rendering thread, then only copies. The chunks
/// cannot go stale, since nothing here changes once made.
struct BuiltBucket: Sendable {
  let geometry: BucketGeometry
  /// The chunks of `geometry.main`.
  let mainChunks: [MeshChunk]
  /// The chunks of `geometry.outline` (empty without one).
  let outlineChunks: [MeshChunk]

  init(_ geometry: BucketGeometry) {
    self.geometry = geometry
    mainChunks = MeshChunks.build(geometry.main)
    outlineChunks = geometry.outline.map(MeshChunks.build) ?? []
  }

  /// The geometry's size in bytes (what the mesh cache counts).
  var byteCount: Int { geometry.byteCount }
}
