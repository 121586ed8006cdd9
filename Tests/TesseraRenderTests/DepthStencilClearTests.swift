import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraRender
import Testing

/// A frame clears the depth and stencil buffers only when it draws with them: a frame that does
/// not leaves them as they were, and the next frame that does starts from cleared buffers. The
/// buffers are made with the first frame that draws with them.
@Suite struct DepthStencilClearTests {
  /// The whole frame at one depth (clip-space z), in one colour; with `testsDepth`, tested
  /// (less or equal) and written.
  struct DepthQuad: FrameLayer {
    struct Variant: PipelineVariant {
      let testsDepth: Bool
      var descriptor: PipelineDescriptor {
        PipelineDescriptor(
          program: "solid",
          layout: VertexLayout(
            buffers: [VertexBufferLayout(stride: 8)], attributes: [VertexAttribute("a_position", .float2)]),
          depth: testsDepth ? .readWrite : .disabled, label: description)
      }
      var description: String { testsDepth ? "quad tested against depth" : "quad" }
    }

    static let matrix = UniformSlot<Mat4>("u_matrix")
    static let color = UniformSlot<Color>("u_color")

    let depth: Double
    let color: Color
    let testsDepth: Bool

    func addDraws(to frame: inout FrameBuilder) {
      var uniforms = UniformValues()
      uniforms.set(Self.matrix, Mat4(rows: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, depth], [0, 0, 0, 1]]))
      uniforms.set(Self.color, color)
      frame.draw(.translucent, Pipeline(Variant(testsDepth: testsDepth)), .builtin(.fullScreenTriangle), uniforms)
    }
  }

  static func draw(_ quads: DepthQuad..., with executor: FrameExecutor) throws
    -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8)
  {
    let transform = CameraTransform(
      camera: try Camera(latitude: 0, longitude: 0, zoom: 3), viewport: try Viewport(width: 32, height: 24))
    let plan = try FrameComposer.compose(
      quads, transform: transform, background: .black, resources: executor.resources
    )
    .plan
    try executor.execute(plan)
    return try executor.readPixels().pixel(x: 16, y: 12)
  }

  @Test func framesClearDepthWhenTheyDrawWithIt() throws {
    let executor = FrameExecutor(device: try GLDevice(gpu: .surfaceless))
    // Near, written into the depth buffer.
    let red = try Self.draw(DepthQuad(depth: -0.5, color: Color(r: 255, g: 0, b: 0), testsDepth: true), with: executor)
    #expect(executor.lastFrameClearedDepthAndStencil)
    #expect(red == (255, 0, 0, 255))
    // No depth: the buffer is left as it is.
    let blue = try Self.draw(DepthQuad(depth: 0.5, color: Color(r: 0, g: 0, b: 255), testsDepth: false), with: executor)
    #expect(!executor.lastFrameClearedDepthAndStencil)
    #expect(blue == (0, 0, 255, 255))
    // Farther than the first frame's depth: drawn only if this frame cleared it.
    let green = try Self.draw(DepthQuad(depth: 0.5, color: Color(r: 0, g: 255, b: 0), testsDepth: true), with: executor)
    #expect(executor.lastFrameClearedDepthAndStencil)
    #expect(green == (0, 255, 0, 255))
  }

  @Test func theDepthBufferIsMadeWithTheFirstFrameDrawingWithIt() throws {
    let executor = FrameExecutor(device: try GLDevice(gpu: .surfaceless))
    let blue = try Self.draw(DepthQuad(depth: 0.5, color: Color(r: 0, g: 0, b: 255), testsDepth: false), with: executor)
    #expect(!executor.targetHasDepthStencil)
    #expect(blue == (0, 0, 255, 255))
    // The near quad hides the far one drawn after it only with a depth buffer.
    let near = DepthQuad(depth: -0.5, color: Color(r: 255, g: 0, b: 0), testsDepth: true)
    let far = DepthQuad(depth: 0.5, color: Color(r: 0, g: 255, b: 0), testsDepth: true)
    #expect(try Self.draw(near, far, with: executor) == (255, 0, 0, 255))
    #expect(executor.targetHasDepthStencil)
    // Kept for frames without depth, and cleared again by the next frame with it.
    #expect(try Self.draw(far, with: executor) == (0, 255, 0, 255))
    _ = try Self.draw(DepthQuad(depth: 0.9, color: Color(r: 0, g: 0, b: 255), testsDepth: false), with: executor)
    #expect(executor.targetHasDepthStencil)
    #expect(try Self.draw(far, near, with: executor) == (255, 0, 0, 255))
  }
}
