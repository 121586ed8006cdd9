import TesseraGL
import TesseraGeo
import TesseraNumbers

/// Meshes, textures and instance buffers uploaded to the GPU, each under the key of what it is
/// (a tile bucket, a tile's image, an atlas page, a marker batch), kept across frames and
/// cameras. On devices that draw from host memory (``GLDevice/drawsFromHostMemory``) a mesh
/// keeps its bucket's arrays instead of copies.
///
/// Meshes and textures are evicted least-recently-used beyond a byte budget; entries used by
/// the frame being drawn are never evicted during it: ``beginFrame()`` marks a new frame, and
/// eviction only removes entries last used by earlier frames. Pinned textures (atlas pages) and
/// instance buffers stay until their owner removes or replaces them.
package final class GPUResourceCache {
  /// One uploaded mesh.
  struct Mesh {
    let vertices: BufferHandle
    let paint: BufferHandle?
    let indices: BufferHandle
    let indexCount: Int
    /// Runs of indices with their bounding boxes, for skipping what the view cannot see.
    let chunks: [MeshChunk]
    /// The highest vertex above the ground (extrusions), in the mesh's height units (metres).
    let maxHeight: Float
  }

  /// The meshes stored under one key: the main triangles and, for fills, the outlines.
  struct MeshSet {
    let main: Mesh?
    let outline: Mesh?
  }

  private struct Entry<Value> {
    var value: Value
    var bytes: Int
    var lastFrame: Int
  }

  package let device: GLDevice
  /// Bytes of GPU memory the cache may hold (it can exceed this when one frame needs more).
  package let budget: Int
  private var meshSets: [ResourceKey: Entry<MeshSet>] = [:]
  private var textures: [ResourceKey: Entry<TextureHandle>] = [:]

  /// The keys of the textures held now (for work done ahead on other threads, which skips them).
  package var textureKeys: Set<ResourceKey> { Set(textures.keys) }
  /// What parts of evictable textures draw anything, where their uploader said.
  private var occupancies: [ResourceKey: TextureOccupancy] = [:]
  /// What was drawn into textures drawn by frames (``renderableTexture(_:width:height:version:)``).
  private var versions: [ResourceKey: Int] = [:]
  /// Per-instance data (never evicted; replaced by its owner).
  private var instanceBuffers: [ResourceKey: (buffer: BufferHandle, count: Int, bytes: Int)] = [:]
  /// Textures kept out of eviction (atlas pages).
  private var pinnedTextures: [ResourceKey: TextureHandle] = [:]
  private var frame = 0
  /// Bytes of the evictable meshes and textures.
  package private(set) var bytes = 0

  /// Whether style layers clip tiles with clip planes in rotated and tilted views (the
  /// device's choice by default: where it has `GL_EXT_clip_cull_distance`); false draws stencil
  /// masks, as on devices without (for comparisons).
  package var clipsTilesByPlanes: Bool

  package init(device: GLDevice, budget: Int = 512 << 20) {
    self.device = device
    self.budget = budget
    clipsTilesByPlanes = device.info.limits.clipsTilesByPlanes
  }

  deinit {
    for entry in meshSets.values { release(entry.value) }
    for entry in textures.values { device.destroy(entry.value) }
    for entry in instanceBuffers.values { device.destroy(entry.buffer) }
    for texture in pinnedTextures.values { device.destroy(texture) }
  }

  /// Number of evictable mesh sets and textures held.
  package var count: (meshSets: Int, textures: Int) { (meshSets.count, textures.count) }

  /// Starts a frame: entries touched from now on belong to it.
  package func beginFrame() {
    frame += 1
  }

  // MARK: Meshes

  /// Whether meshes are uploaded under `key` (and marks them used by this frame).
  package func containsMeshes(_ key: ResourceKey) -> Bool {
    guard meshSets[key] != nil else { return false }
    meshSets[key]!.lastFrame = frame
    return true
  }

  /// Uploads a bucket's geometry under `key` (replacing what was there).
  func insertMeshes(_ bucket: BuiltBucket, for key: ResourceKey) throws(GLError) {
    let main = try upload(bucket.geometry.main, chunks: bucket.mainChunks, label: "\(key)")
    let outline = try bucket.geometry.outline.flatMap { mesh throws(GLError) in
      try upload(mesh, chunks: bucket.outlineChunks, label: "\(key) outline")
    }
    let size = bucket.byteCount
    if let old = meshSets[key] {
      release(old.value)
      bytes -= old.bytes
    }
    meshSets[key] = Entry(value: MeshSet(main: main, outline: outline), bytes: size, lastFrame: frame)
    bytes += size
    evict()
  }

  func meshes(_ key: ResourceKey) -> MeshSet? { meshSets[key]?.value }

  private func upload(_ mesh: MeshGeometry, chunks: [MeshChunk], label: ResourceLabel) throws(GLError) -> Mesh? {
    guard !mesh.isEmpty else { return nil }
    // Kept, not copied, where the device draws from host memory (the bucket's arrays are
    // never changed; ``BuiltBucket`` checked that the indices name its vertices).
    let vertices = try device.makeBuffer(BufferDescriptor(kind: .vertex, label: label), keeping: mesh.vertices)
    let paint: BufferHandle?
    do {
      paint =
        mesh.paint.isEmpty
        ? nil
        : try device.makeBuffer(
          BufferDescriptor(kind: .vertex, label: label.appending(" paint")), keeping: mesh.paint)
    } catch {
      device.destroy(vertices)
      throw error
    }
    do {
      let indices = try device.makeBuffer(BufferDescriptor(kind: .index, label: label), keeping: mesh.indices)
      return Mesh(
        vertices: vertices, paint: paint, indices: indices, indexCount: mesh.indices.count, chunks: chunks,
        maxHeight: mesh.maxHeight)
    } catch {
      device.destroy(vertices)
      if let paint { device.destroy(paint) }
      throw error
    }
  }

  private func release(_ set: MeshSet) {
    for mesh in [set.main, set.outline].compactMap({ $0 }) {
      device.destroy(mesh.vertices)
      device.destroy(mesh.indices)
      if let paint = mesh.paint { device.destroy(paint) }
    }
  }

  // MARK: Textures

  /// The texture, when uploaded (and marks it used by this frame).
  package func texture(_ key: ResourceKey) -> TextureHandle? {
    if let pinned = pinnedTextures[key] { return pinned }
    guard let entry = textures[key] else { return nil }
    textures[key]!.lastFrame = frame
    return entry.value
  }

  /// Whether layers that shade tile textures (hillshade) draw each tile's shading from a
  /// texture it was baked into, kept while the shading's inputs hold; false shades every pixel
  /// of every frame, for comparisons.
  package var bakesTileShading = true

  /// Whether a bake of a tile's shading draws only the cells the frame shows (and those next
  /// to them); false draws every cell that shades anything, for comparisons.
  package var bakesShownCellsOnly = true

  /// The size in texels of the texture of `key`, when it is there.
  package func textureSize(_ key: ResourceKey) -> (width: Int, height: Int)? {
    guard let handle = texture(key) else { return nil }
    return device.size(of: handle)
  }

  /// Whether draws may leave out the parts of textures that draw nothing (their
  /// ``occupancy(_:)``); false draws every texture whole, for comparisons.
  package var usesTextureOccupancy = true

  /// Which parts of the texture of `key` draw anything, when its uploader said (nil when not
  /// known, or when ``usesTextureOccupancy`` is off).
  package func occupancy(_ key: ResourceKey) -> TextureOccupancy? {
    usesTextureOccupancy ? occupancies[key] : nil
  }

  /// Uploads RGBA pixels (rows top first) as the evictable texture of `key`, with which parts
  /// of it draw anything when `occupancy` says; without pixels its texels are left for a pass
  /// to clear and draw (their contents are undefined until then).
  @discardableResult
  package func insertTexture(
    _ key: ResourceKey, width: Int, height: Int, pixels: [UInt8]?, filter: TextureFilter = .linear,
    wrap: TextureWrap = .clampToEdge, occupancy: TextureOccupancy? = nil
  ) throws(GLError) -> TextureHandle {
    let handle = try device.makeTexture(
      TextureDescriptor(width: width, height: height, filter: filter, wrap: wrap, label: "\(key)"), pixels: pixels)
    if let old = textures[key] {
      device.destroy(old.value)
      bytes -= old.bytes
    }
    occupancies[key] = occupancy
    versions[key] = nil
    let textureBytes = pixels?.count ?? width * height * 4
    textures[key] = Entry(value: handle, bytes: textureBytes, lastFrame: frame)
    bytes += textureBytes
    evict()
    return handle
  }

  /// The version of what a frame drew into the texture of `key`, nil when it is not there
  /// (or was uploaded rather than drawn).
  package func textureVersion(_ key: ResourceKey) -> Int? {
    guard textures[key] != nil else { return nil }
    return versions[key]
  }

  /// The evictable RGBA8 texture of `key` for a frame to draw `version` of its contents into:
  /// the one there when it has the size (and is marked used), else a new one.
  func renderableTexture(_ key: ResourceKey, width: Int, height: Int, version: Int) throws(GLError)
    -> TextureHandle
  {
    if let entry = textures[key], device.size(of: entry.value).width == width,
      device.size(of: entry.value).height == height
    {
      textures[key]!.lastFrame = frame
      versions[key] = version
      return entry.value
    }
    // No pixels: the pass that draws into it clears it whole first.
    let texture = try insertTexture(key, width: width, height: height, pixels: nil)
    versions[key] = version
    return texture
  }

  // MARK: Pinned resources

  /// A texture that is never evicted (made transparent, `width` × `height`, on first use).
  package func pinnedTexture(_ key: ResourceKey, width: Int, height: Int) throws(GLError) -> TextureHandle {
    if let texture = pinnedTextures[key] {
      let size = device.size(of: texture)
      if size.width == width && size.height == height { return texture }
      // One of another size (left by an earlier user of the key) is replaced, never written past.
      removePinnedTexture(key)
    }
    let texture = try device.makeTexture(
      TextureDescriptor(width: width, height: height, label: "\(key)"),
      pixels: [UInt8](repeating: 0, count: width * height * 4))
    pinnedTextures[key] = texture
    return texture
  }

  /// Keeps a pinned atlas texture of `width` × `height` texels in `format` up to date: made
  /// anew from `pixels()` (every row) when absent or of another size, else only `rows` are
  /// sent, from `rowBytes(rows)`.
  package func updatePinnedAtlas(
    _ key: ResourceKey, width: Int, height: Int, format: TextureFormat, rows: Range<Int>,
    pixels: () -> [UInt8], rowBytes: (Range<Int>) -> [UInt8]
  ) throws(GLError) {
    if let texture = pinnedTextures[key] {
      let size = device.size(of: texture)
      if size.width == width, size.height == height {
        guard !rows.isEmpty else { return }
        device.updateTexture(
          texture, x: 0, y: rows.lowerBound, width: width, height: rows.count, pixels: rowBytes(rows))
        return
      }
      removePinnedTexture(key)
    }
    pinnedTextures[key] = try device.makeTexture(
      TextureDescriptor(width: width, height: height, format: format, label: "\(key)"), pixels: pixels())
  }

  /// Deletes a pinned texture.
  package func removePinnedTexture(_ key: ResourceKey) {
    if let texture = pinnedTextures.removeValue(forKey: key) { device.destroy(texture) }
  }

  /// Bytes of a pinned texture (0 when there is none).
  package func pinnedTextureBytes(_ key: ResourceKey) -> Int {
    guard let texture = pinnedTextures[key] else { return 0 }
    let size = device.size(of: texture)
    return size.width * size.height * 4
  }

  /// Replaces the instance data under `key` (removes it when `bytes` is empty).
  package func setInstances(_ bytes: [UInt8], count: Int, for key: ResourceKey) throws(GLError) {
    if let old = instanceBuffers[key] {
      if !bytes.isEmpty, old.bytes >= bytes.count {
        try device.updateBuffer(old.buffer, contents: bytes)
        instanceBuffers[key] = (old.buffer, count, old.bytes)
        return
      }
      device.destroy(old.buffer)
      instanceBuffers[key] = nil
    }
    guard !bytes.isEmpty else { return }
    let buffer = try device.makeBuffer(
      BufferDescriptor(kind: .vertex, usage: .dynamic, label: "\(key) instances"), contents: bytes)
    instanceBuffers[key] = (buffer, count, bytes.count)
  }

  /// The instance buffer under `key` and how many instances it holds.
  func instances(_ key: ResourceKey) -> (buffer: BufferHandle, count: Int)? {
    instanceBuffers[key].map { ($0.buffer, $0.count) }
  }

  /// Bytes of the instance buffer under `key` (0 when there is none).
  package func instanceBytes(_ key: ResourceKey) -> Int { instanceBuffers[key]?.bytes ?? 0 }

  // MARK: Eviction

  /// Drops every evictable mesh and texture (a new style, or memory pressure).
  package func removeAll() {
    for entry in meshSets.values { release(entry.value) }
    for entry in textures.values { device.destroy(entry.value) }
    meshSets = [:]
    textures = [:]
    occupancies = [:]
    versions = [:]
    bytes = 0
  }

  /// Removes least recently used entries of earlier frames until the budget holds.
  private func evict() {
    guard bytes > budget else { return }
    var candidates: [(frame: Int, meshes: ResourceKey?, texture: ResourceKey?)] = []
    for (key, entry) in meshSets where entry.lastFrame < frame { candidates.append((entry.lastFrame, key, nil)) }
    for (key, entry) in textures where entry.lastFrame < frame { candidates.append((entry.lastFrame, nil, key)) }
    candidates.sort { $0.frame < $1.frame }
    for candidate in candidates {
      guard bytes > budget * 3 / 4 else { break }
      if let key = candidate.meshes, let entry = meshSets.removeValue(forKey: key) {
        release(entry.value)
        bytes -= entry.bytes
      } else if let key = candidate.texture, let entry = textures.removeValue(forKey: key) {
        occupancies[key] = nil
        versions[key] = nil
        device.destroy(entry.value)
        bytes -= entry.bytes
      }
    }
  }
}
