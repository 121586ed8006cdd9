import TesseraGL
import TesseraImage
import Testing

/// Buffers made with `makeBuffer(_:keeping:)`: drawn from the arrays where they lie on devices
/// that draw from host memory (software renderers by default), copied into buffer objects
/// elsewhere; both draw the same pixels.
@Suite struct KeptArrayTests {
  /// Two triangles in clip space (x, y pairs): the left half, then the right half.
  static let vertices: [Float] = [-1, -1, 0, -1, -1, 1, 0, -1, 1, -1, 1, 1, 0, 1]
  static let indices: [UInt32] = [0, 1, 2, 3, 4, 5, 3, 5, 6]

  /// Draws the indices from `first` on (the second and third triangles: the right half) and
  /// returns the pixels and the bytes the device copied.
  func draw(fromHostMemory: Bool, first: Int) throws -> (image: RGBAImage, uploaded: Int, device: GLDevice) {
    let device = try GLDevice(gpu: .surfaceless, drawsFromHostMemory: fromHostMemory)
    #expect(device.drawsFromHostMemory == fromHostMemory)
    let target = try device.makeRenderTarget(RenderTargetDescriptor(width: 16, height: 8))
    let pipeline = try KeptArrayTests.indexedSolidPipeline(device)
    let before = device.resourceCounts.buffers
    device.resetStatistics()
    let vertices = try device.makeBuffer(BufferDescriptor(kind: .vertex), keeping: KeptArrayTests.vertices)
    let indices = try device.makeBuffer(BufferDescriptor(kind: .index), keeping: KeptArrayTests.indices)
    device.beginPass(target, action: PassAction(clearColor: .transparent))
    device.applyPipeline(pipeline)
    device.applyBindings(Bindings(vertexBuffers: [vertices], indexBuffer: indices))
    let identity: [Float] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    device.setUniform(device.uniform("u_matrix", of: pipeline), .mat4(identity))
    device.setUniform(device.uniform("u_color", of: pipeline), .vec4(0, 0, 1, 1))
    device.draw(first: first, count: KeptArrayTests.indices.count - first)
    device.endPass()
    let uploaded = device.statistics.uploadedBytes
    device.destroy(vertices)
    device.destroy(indices)
    #expect(device.resourceCounts.buffers == before, "destroying a kept array releases it")
    return (try device.readPixels(target), uploaded, device)
  }

  @Test func keptArraysDrawWhatBufferObjectsDraw() throws {
    let kept = try draw(fromHostMemory: true, first: 3)
    let copied = try draw(fromHostMemory: false, first: 3)
    #expect(kept.image == copied.image)
    // The right half is drawn, the left half (the first triangle, skipped) is not.
    #expect(kept.image.pixel(x: 12, y: 4) == (0, 0, 255, 255))
    #expect(kept.image.pixel(x: 3, y: 4) == (0, 0, 0, 0))
    #expect(kept.uploaded == 0, "a kept array is not copied")
    #expect(copied.uploaded == (KeptArrayTests.vertices.count + KeptArrayTests.indices.count) * 4)
    let whole = try draw(fromHostMemory: true, first: 0)
    #expect(whole.image.pixel(x: 3, y: 4) == (0, 0, 255, 255))
  }

  /// On a device drawing from host memory, draws `indices` of the kept two-triangle vertices
  /// (destroying the kept index array first when `destroyingIndices`).
  static func drawKept(_ indices: [UInt32], destroyingIndices: Bool = false) throws {
    let device = try GLDevice(gpu: .surfaceless, drawsFromHostMemory: true)
    let target = try device.makeRenderTarget(RenderTargetDescriptor(width: 4, height: 4))
    let pipeline = try indexedSolidPipeline(device)
    let vertices = try device.makeBuffer(BufferDescriptor(kind: .vertex), keeping: KeptArrayTests.vertices)
    let kept = try device.makeBuffer(BufferDescriptor(kind: .index), keeping: indices)
    device.beginPass(target, action: PassAction(clearColor: .transparent))
    device.applyPipeline(pipeline)
    device.applyBindings(Bindings(vertexBuffers: [vertices], indexBuffer: kept))
    if destroyingIndices { device.destroy(kept) }
    device.draw(count: 3)
    device.endPass()
  }

  /// The `solid` program drawing indexed triangles of clip-space positions.
  static func indexedSolidPipeline(_ device: GLDevice) throws -> PipelineHandle {
    try device.makePipeline(
      PipelineDescriptor(
        program: "solid",
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 8)], attributes: [VertexAttribute("a_position", .float2)]),
        indexType: .uint32))
  }

  /// GL checks no range of a client-side array: a draw whose indices name vertices past the
  /// kept vertex array stops the process instead of reading memory that is not the array's.
  @Test func aDrawReadingPastKeptArraysStops() async throws {
    try KeptArrayTests.drawKept([0, 1, 2])
    await #expect(processExitsWith: .failure) {
      try KeptArrayTests.drawKept([0, 1, 7])
    }
  }

  /// A kept array destroyed while bound leaves no binding pointing at it: the next indexed
  /// draw without new bindings stops instead of reading freed memory.
  @Test func aDestroyedKeptIndexArrayIsUnbound() async {
    await #expect(processExitsWith: .failure) {
      try KeptArrayTests.drawKept(KeptArrayTests.indices, destroyingIndices: true)
    }
  }

  @Test func softwareRenderersDrawFromHostMemoryByDefault() throws {
    let device = try GLDevice(gpu: .surfaceless)
    #expect(device.info.isSoftware)
    #expect(device.drawsFromHostMemory)
  }
}
