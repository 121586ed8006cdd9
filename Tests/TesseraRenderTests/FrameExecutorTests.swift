import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraRender
import Testing

/// A frame whose draw fails leaves the executor ready for the next frame.
@Suite struct FrameExecutorTests {
  /// A pipeline whose program is not embedded: making it fails.
  struct MissingProgram: PipelineVariant {
    var descriptor: PipelineDescriptor {
      PipelineDescriptor(
        program: "no_such_program", defines: [:],
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 8)], attributes: [VertexAttribute("a_corner", .float2, buffer: 0)]),
        primitive: .triangleStrip, label: description)
    }
    var description: String { "missing program" }
  }

  /// Draws one unit quad with the missing program.
  struct BrokenLayer: FrameLayer {
    func addDraws(to frame: inout FrameBuilder) throws {
      frame.draw(.translucent, Pipeline(MissingProgram()), .builtin(.unitQuadStrip), UniformValues())
    }
  }

  @Test func aFailedDrawClosesItsPass() throws {
    let viewport = try Viewport(width: 64, height: 48, scale: 1)
    let camera = try Camera(latitude: 43.7384, longitude: 7.4246, zoom: 15)
    let transform = CameraTransform(camera: camera, viewport: viewport)
    let executor = FrameExecutor(device: try GLDevice(gpu: .surfaceless))
    let broken = try FrameComposer.compose(
      [BrokenLayer()], transform: transform, background: .black, resources: executor.resources)
    #expect(throws: GLError.self) { try executor.execute(broken.plan) }
    // The next frame draws (before the fix it trapped: "beginPass while another pass is open").
    let dot = PointsLayer(points: [PointsLayer.Point(camera.target, color: .white)], radius: 6)
    let frame = try FrameComposer.compose(
      [dot], transform: transform, background: .black, resources: executor.resources)
    try executor.execute(frame.plan)
    let image = try executor.readPixels()
    #expect(image.pixel(x: 32, y: 24).r == 255)
    #expect(image.pixel(x: 2, y: 2).r == 0)
  }
}
