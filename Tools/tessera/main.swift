import TesseraGL
import TesseraImage
import Foundation
for gpu in [GPUSelection.surfaceless, .software, .auto] {
  do {
    let device = try GLDevice(gpu: gpu)
    print(gpu, device.info.renderer, device.info.platform, device.info.limits)
    let target = try device.makeRenderTarget(RenderTargetDescriptor(width: 64, height: 32, samples: 4))
    let pipeline = try device.makePipeline(PipelineDescriptor(program: "solid", layout: VertexLayout(buffers: [VertexBufferLayout(stride: 8)], attributes: [VertexAttribute("a_position", .float2)])))
    let vb = try device.makeBuffer(BufferDescriptor(kind: .vertex), contents: [Float]([-1, 1, 1, 1, -1, 0,  1, 1, 1, 0, -1, 0]))
    device.beginPass(target, action: PassAction(clearColor: Color(r: 255, g: 0, b: 0)))
    device.applyPipeline(pipeline)
    device.applyBindings(Bindings(vertexBuffers: [vb]))
    device.setUniform(device.uniform("u_matrix", of: pipeline), .mat4([1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]))
    device.setUniform(device.uniform("u_color", of: pipeline), .vec4(0, 0, 0.5, 0.5))
    device.draw(count: 6)
    device.endPass()
    let image = try device.readPixels(target)
    print(image.pixel(x: 0, y: 0), image.pixel(x: 0, y: 31), device.statistics)
    try Data(PNGCodec.encode(image)).write(to: URL(fileURLWithPath: "/tmp/smoke-\(gpu).png"))
  } catch { print("ERROR", error) }
}
do { _ = try GLDevice(gpu: .gbm(renderNode: nil)) } catch { print("gbm:", error) }
do { _ = try GLDevice(gpu: .device(5)) } catch { print("dev5:", error) }
do { let d = try GLDevice(gpu: .surfaceless); _ = try d.makeRenderTarget(RenderTargetDescriptor(width: 100000, height: 100000)) } catch { print("big:", error) }
