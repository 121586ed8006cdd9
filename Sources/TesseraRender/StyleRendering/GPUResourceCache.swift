import TesseraGL
import TesseraGeo

/// Identifies a texture of a tile: a raster image, or the prepared slopes of a DEM tile.
public struct TextureKey: Sendable, Hashable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    /// The decoded raster image (premultiplied).
    case raster
    /// Hillshade slopes; `neighbours` has bit i set when neighbour i (see
    /// ``HillshadePreparation/neighbourOffsets``) filled the border.
    case hillshade(neighbours: UInt8)
    /// A page of the marker icon atlas (kept until the markers change).
    case markerAtlas(page: Int)
  }

  public let source: String
  public let tile: TileID
  public let kind: Kind

  public init(source: String, tile: TileID, kind: Kind) {
    self.source = source
    self.tile = tile
    self.kind = kind
  }

  public var description: String { "\(kind) \(source) \(tile)" }
}

/// Tile geometry and textures uploaded to the GPU, kept across frames and cameras and evicted
/// least-recently-used beyond a byte budget.
///
/// Entries used by the frame being drawn are never evicted during it: ``beginFrame()`` marks a
/// new frame, and eviction only removes entries last used by earlier frames.
public final class GPUResourceCache {
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

  /// One uploaded bucket.
  struct Bucket {
    let main: Mesh?
    let outline: Mesh?
  }

  private struct Entry<Value> {
    var value: Value
    var bytes: Int
    var lastFrame: Int
  }

  public let device: GLDevice
  /// Bytes of GPU memory the cache may hold (it can exceed this when one frame needs more).
  public let budget: Int
  private var buckets: [BucketKey: Entry<Bucket>] = [:]
  private var textures: [TextureKey: Entry<TextureHandle>] = [:]
  /// Per-instance data of marker batches (never evicted; replaced when markers change).
  private var instanceBuffers: [MarkerBatchKey: (buffer: BufferHandle, count: Int, bytes: Int)] = [:]
  /// Textures kept out of eviction (marker atlas pages).
  private var pinnedTextures: [TextureKey: TextureHandle] = [:]
  private var frame = 0
  public private(set) var bytes = 0

  public init(device: GLDevice, budget: Int = 512 << 20) {
    self.device = device
    self.budget = budget
  }

  deinit {
    for entry in buckets.values { release(entry.value) }
    for entry in textures.values { device.destroy(entry.value) }
    for entry in instanceBuffers.values { device.destroy(entry.buffer) }
    for texture in pinnedTextures.values { device.destroy(texture) }
  }

  /// Number of buckets and textures held.
  public var count: (buckets: Int, textures: Int) { (buckets.count, textures.count) }

  /// Starts a frame: entries touched from now on belong to it.
  public func beginFrame() {
    frame += 1
  }

  // MARK: Buckets

  /// Whether the bucket is uploaded (and marks it used by this frame).
  public func containsBucket(_ key: BucketKey) -> Bool {
    guard buckets[key] != nil else { return false }
    buckets[key]!.lastFrame = frame
    return true
  }

  /// Uploads a bucket's geometry.
  func insert(_ geometry: BucketGeometry, for key: BucketKey) throws(GLError) {
    let main = try upload(geometry.main, label: "\(key)")
    let outline = try geometry.outline.flatMap { mesh throws(GLError) in try upload(mesh, label: "\(key) outline") }
    let size = geometry.byteCount
    if let old = buckets[key] {
      release(old.value)
      bytes -= old.bytes
    }
    buckets[key] = Entry(value: Bucket(main: main, outline: outline), bytes: size, lastFrame: frame)
    bytes += size
    evict()
  }

  func bucket(_ key: BucketKey) -> Bucket? { buckets[key]?.value }

  private func upload(_ mesh: MeshGeometry, label: String) throws(GLError) -> Mesh? {
    guard !mesh.isEmpty else { return nil }
    let vertices = try device.makeBuffer(BufferDescriptor(kind: .vertex, label: label), contents: mesh.vertices)
    let paint: BufferHandle?
    do {
      paint =
        mesh.paint.isEmpty
        ? nil : try device.makeBuffer(BufferDescriptor(kind: .vertex, label: label + " paint"), contents: mesh.paint)
    } catch {
      device.destroy(vertices)
      throw error
    }
    do {
      let indices = try device.makeBuffer(BufferDescriptor(kind: .index, label: label), contents: mesh.indices)
      let chunks = MeshChunks.build(
        vertices: mesh.vertices, floatsPerVertex: mesh.floatsPerVertex, indices: mesh.indices)
      return Mesh(
        vertices: vertices, paint: paint, indices: indices, indexCount: mesh.indices.count, chunks: chunks,
        maxHeight: mesh.maxHeight)
    } catch {
      device.destroy(vertices)
      if let paint { device.destroy(paint) }
      throw error
    }
  }

  private func release(_ bucket: Bucket) {
    for mesh in [bucket.main, bucket.outline].compactMap({ $0 }) {
      device.destroy(mesh.vertices)
      device.destroy(mesh.indices)
      if let paint = mesh.paint { device.destroy(paint) }
    }
  }

  // MARK: Textures

  /// The texture, when uploaded (and marks it used by this frame).
  public func texture(_ key: TextureKey) -> TextureHandle? {
    if let pinned = pinnedTextures[key] { return pinned }
    guard let entry = textures[key] else { return nil }
    textures[key]!.lastFrame = frame
    return entry.value
  }

  /// Uploads RGBA pixels (rows top first) as the texture of `key`.
  public func insertTexture(
    _ key: TextureKey, width: Int, height: Int, pixels: [UInt8], filter: TextureFilter = .linear
  ) throws(GLError) -> TextureHandle {
    let handle = try device.makeTexture(
      TextureDescriptor(width: width, height: height, filter: filter, label: "\(key)"), pixels: pixels)
    if let old = textures[key] {
      device.destroy(old.value)
      bytes -= old.bytes
    }
    textures[key] = Entry(value: handle, bytes: pixels.count, lastFrame: frame)
    bytes += pixels.count
    evict()
    return handle
  }

  // MARK: Pinned resources (markers)

  /// A texture that is never evicted (made transparent, `width` × `height`, on first use).
  func pinnedTexture(_ key: TextureKey, width: Int, height: Int) throws(GLError) -> TextureHandle {
    if let texture = pinnedTextures[key] { return texture }
    let texture = try device.makeTexture(
      TextureDescriptor(width: width, height: height, label: "\(key)"),
      pixels: [UInt8](repeating: 0, count: width * height * 4))
    pinnedTextures[key] = texture
    return texture
  }

  /// Deletes a pinned texture.
  func removePinnedTexture(_ key: TextureKey) {
    if let texture = pinnedTextures.removeValue(forKey: key) { device.destroy(texture) }
  }

  /// Replaces a marker batch's instance data (removes it when `bytes` is empty).
  func setInstances(_ bytes: [UInt8], count: Int, for key: MarkerBatchKey) throws(GLError) {
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
      BufferDescriptor(kind: .vertex, usage: .dynamic, label: "markers \(key)"), contents: bytes)
    instanceBuffers[key] = (buffer, count, bytes.count)
  }

  func instances(_ key: MarkerBatchKey) -> (buffer: BufferHandle, count: Int)? {
    instanceBuffers[key].map { ($0.buffer, $0.count) }
  }

  /// Bytes held for markers: atlas pages and instance data.
  public var markerBytes: (atlas: Int, instances: Int) {
    let atlas = pinnedTextures.keys.reduce(0) { total, key in
      guard case .markerAtlas = key.kind, let handle = pinnedTextures[key] else { return total }
      let size = device.size(of: handle)
      return total + size.width * size.height * 4
    }
    return (atlas, instanceBuffers.values.reduce(0) { $0 + $1.bytes })
  }

  // MARK: Eviction

  /// Drops everything (a new style, or memory pressure).
  public func removeAll() {
    for entry in buckets.values { release(entry.value) }
    for entry in textures.values { device.destroy(entry.value) }
    buckets = [:]
    textures = [:]
    bytes = 0
  }

  /// Removes least recently used entries of earlier frames until the budget holds.
  private func evict() {
    guard bytes > budget else { return }
    var candidates: [(frame: Int, bucket: BucketKey?, texture: TextureKey?)] = []
    for (key, entry) in buckets where entry.lastFrame < frame { candidates.append((entry.lastFrame, key, nil)) }
    for (key, entry) in textures where entry.lastFrame < frame { candidates.append((entry.lastFrame, nil, key)) }
    candidates.sort { $0.frame < $1.frame }
    for candidate in candidates {
      guard bytes > budget * 3 / 4 else { break }
      if let key = candidate.bucket, let entry = buckets.removeValue(forKey: key) {
        release(entry.value)
        bytes -= entry.bytes
      } else if let key = candidate.texture, let entry = textures.removeValue(forKey: key) {
        device.destroy(entry.value)
        bytes -= entry.bytes
      }
    }
  }
}
