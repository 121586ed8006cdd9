import TesseraNumbers

/// A bucket's finished geometry with the culling chunks of its meshes (``MeshChunks``), made by
/// the thread that built it: uploading, on the rendering thread, then only copies (or keeps). The chunks
/// cannot go stale, since nothing here changes once made.
struct BuiltBucket: Sendable {
  let geometry: BucketGeometry
  /// The chunks of `geometry.main`.
  let mainChunks: [MeshChunk]
  /// The chunks of `geometry.outline` (empty without one).
  let outlineChunks: [MeshChunk]

  /// The geometry with its chunks. A mesh whose indices name vertices it does not have (a
  /// tessellator's mistake) is left out: a device drawing from host memory would read past
  /// its vertices.
  init(_ geometry: BucketGeometry) {
    var geometry = geometry
    if !geometry.main.isWellFormed {
      assertionFailure("a bucket's mesh indexes vertices it does not have")
      geometry.main = MeshGeometry(floatsPerVertex: geometry.main.floatsPerVertex)
    }
    if let outline = geometry.outline, !outline.isWellFormed {
      assertionFailure("a bucket's outline indexes vertices it does not have")
      geometry.outline = nil
    }
    self.geometry = geometry
    mainChunks = MeshChunks.build(geometry.main)
    outlineChunks = geometry.outline.map(MeshChunks.build) ?? []
  }

  /// The geometry's size in bytes (what the mesh cache counts).
  var byteCount: Int { geometry.byteCount }
}
