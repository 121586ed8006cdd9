import Tessera
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraRender
import Testing

/// Offscreen passes in a frame's prelude are drawn before the frame's own pass, which then
/// begins cleared to the frame's colour as it would without them.
@Suite struct FramePreludeTests {
  /// The grid's frame drawn through `executor`, with `prelude` commands added to its plan.
  static func image(_ executor: FrameExecutor, prelude: [DrawCommand]) throws -> RGBAImage {
    let transform = CameraTransform(
      camera: try Camera(latitude: 0, longitude: 0, zoom: 3, bearing: 20), viewport: try Viewport(width: 64, height: 48)
    )
    let plan = try FrameComposer.compose(
      [DebugTileGrid()], transform: transform, background: Color(r: 204, g: 51, b: 26), resources: executor.resources
    ).plan
    let planned = FramePlan(
      pixelWidth: plan.pixelWidth, pixelHeight: plan.pixelHeight, clearColor: plan.clearColor,
      commands: prelude + plan.commands)
    #expect(planned.commands.prefix(prelude.count).allSatisfy { $0.key.pass == .prelude })
    try executor.execute(planned)
    return try executor.readPixels()
  }

  @Test func aFrameBeginningWithAPreludeIsClearedAndDrawnAsWithout() throws {
    let executor = FrameExecutor(device: try GLDevice(gpu: .surfaceless))
    let without = try Self.image(executor, prelude: [])
    // Part of the frame shows the clear colour, so the test sees whether the clear is kept.
    let cleared = (0..<without.height).flatMap { y in (0..<without.width).map { x in without.pixel(x: x, y: y) } }
      .filter { $0 == (204, 51, 26, 255) }
    #expect(cleared.count > 64)
    let target = OffscreenTarget(name: "prelude probe", width: 8, height: 8, format: .rgba8, clearColor: .white)
    let prelude: [DrawCommand] = [
      .switchTarget(to: target, key: SortKey(pass: .prelude, layer: 0, order: 0)),
      .switchTarget(to: nil, key: SortKey(pass: .prelude, layer: 0, order: 1)),
    ]
    #expect(try Self.image(executor, prelude: prelude) == without)
    // And again after a frame without: nothing of the prelude's pass stays in the frame.
    #expect(try Self.image(executor, prelude: []) == without)
  }
}
