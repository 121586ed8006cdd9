import Foundation
import Synchronization
import TesseraGL
import TesseraImage
import Testing

/// glibc's `mallopt` (declared in `malloc.h`, which the Glibc module leaves out).
@_silgen_name("mallopt")
private func mallopt(_ option: Int32, _ value: Int32) -> Int32

/// Devices whose contexts share one software display (llvmpipe screen), used from several
/// threads at once.
@Suite struct SharedDisplayTests {
  /// On `threads` threads at once, each with a device on the same display, `rounds` times:
  /// draws into each of `textureCount` textures, then into a target thousands of triangles
  /// before every fourth texture (replacing a few of its texels) and every texture over the
  /// target, handed to the rasteriser at once. llvmpipe looks through the scenes of every
  /// context on the screen for each texture a context maps or samples, while each thread's
  /// scenes are built, queued and recycled. The display gets `rasterThreads` rasteriser threads
  /// when this call opens it (nil: llvmpipe's default). Returns each thread's last image.
  static func drawConcurrently(threads: Int, rounds: Int, textureCount: Int = 2, rasterThreads: Int? = nil)
    -> [Int: [UInt8]]
  {
    let images = Mutex<[Int: [UInt8]]>([:])
    let done = DispatchGroup()
    for index in 0..<threads {
      done.enter()
      let thread = Thread {
        defer { done.leave() }
        guard let device = try? GLDevice(gpu: .surfaceless, lane: 0, rasterThreads: rasterThreads),
          let target = try? device.makeRenderTarget(RenderTargetDescriptor(width: 64, height: 64)),
          let quad = try? SolidQuad(device),
          let composite = try? TextureComposite(device)
        else { return }
        let textures = (0..<textureCount).compactMap { _ in
          try? device.makeTexture(TextureDescriptor(width: 64, height: 64))
        }
        let textureTargets = textures.compactMap { try? device.makeRenderTarget(into: $0) }
        guard textureTargets.count == textureCount else { return }
        var image: RGBAImage?
        for round in 0..<rounds {
          let texel = UInt8(truncatingIfNeeded: round)
          for textureTarget in textureTargets {
            device.beginPass(textureTarget, action: PassAction(clearColor: .transparent))
            try? quad.draw(diagonal, rgba: (0.2, 0.1, 0.4, 0.5))
            device.endPass()
          }
          device.beginPass(target, action: PassAction(clearColor: .transparent))
          for (number, texture) in textures.enumerated() {
            if number % 4 == 0 {
              try? quad.draw(SharedDisplayTests.manyTriangles, rgba: (0.2, 0.1, 0.4, 0.5))
              device.updateTexture(
                texture, x: 0, y: 0, width: 4, height: 4, pixels: [UInt8](repeating: texel, count: 4 * 4 * 4))
            }
            try? composite.draw(texture)
          }
          device.endPass()
          device.flush()
          if round % 50 == 49 { image = try? device.readPixels(target) }
        }
        image = try? device.readPixels(target)
        for textureTarget in textureTargets { device.destroy(textureTarget) }
        for texture in textures { device.destroy(texture) }
        if let image { images.withLock { $0[index] = image.pixels } }
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    done.wait()
    return images.withLock { $0 }
  }

  /// 4,096 small triangles over clip space (a 64 × 64 grid, one per cell): enough for a scene
  /// of several of llvmpipe's 64 KiB data blocks.
  static let manyTriangles: [Float] = (0..<4096).flatMap { cell -> [Float] in
    let x = Float(cell % 64) / 32 - 1
    let y = Float(cell / 64) / 32 - 1
    return [x, y, x + 1 / 32, y, x, y + 1 / 32]
  }

  /// Devices on one display, on eight threads at once, draw what each would alone: every
  /// thread's image is the same and not empty, and none waits for ever. llvmpipe (Mesa 22.3)
  /// looks through the scenes of every context on the screen whenever one samples or maps a
  /// texture, while each thread frees and rebuilds its own; with glibc filling freed memory
  /// (`M_PERTURB`), contexts that did not take turns read the filler as pointers and stopped
  /// the process with a segmentation fault within half a second. Run in a child process, so
  /// that a crash fails the test instead of ending the run, and with no rasteriser threads (the
  /// calling thread rasterises each scene as it queues it): the walk through the scenes is the
  /// contexts' own work, and the filler would also turn llvmpipe's race between a rasteriser
  /// thread signalling a scene's fence and the context freeing it (docs/performance.md, the
  /// race taking turns cannot close) into a crash or a hang now and then, whatever the contexts
  /// do.
  @Test func devicesOnOneDisplayDrawOnSeveralThreadsAtOnce() async {
    await #expect(processExitsWith: .success) {
      _ = mallopt(SharedDisplayTests.perturbOption, 0xA5)
      let images = SharedDisplayTests.drawConcurrently(threads: 8, rounds: 20, textureCount: 40, rasterThreads: 0)
      guard images.count == 8, Set(images.values).count == 1, images[0]?.contains(where: { $0 != 0 }) == true else {
        exit(3)
      }
      exit(0)
    }
  }

  /// glibc's `M_PERTURB` (`malloc.h`): fill memory with this byte's complement when it is
  /// allocated and with the byte when it is freed.
  static let perturbOption: Int32 = -6

  /// Calls `call` on a device on display lane `lane` on another thread while this thread holds
  /// `held`'s turn for half a second; returns whether the call had returned before the turn
  /// ended, and whether it returned at all within 10 s.
  static func callWhileHeld(_ held: ContextExclusion, lane: Int, call: @escaping @Sendable (GLDevice) -> Void)
    -> (beforeRelease: Bool, returned: Bool)
  {
    let made = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let returned = Atomic<Bool>(false)
    Thread {
      let device = try? GLDevice(gpu: .surfaceless, lane: lane, rasterThreads: nil)
      made.signal()
      go.wait()
      if let device { call(device) }
      returned.store(true, ordering: .sequentiallyConsistent)
      finished.signal()
    }.start()
    made.wait()
    held.enter()
    go.signal()
    Thread.sleep(forTimeInterval: 0.5)
    let beforeRelease = returned.load(ordering: .sequentiallyConsistent)
    held.leave()
    let done = finished.wait(timeout: .now() + 10) == .success
    return (beforeRelease, done)
  }

  /// While one thread holds a software display's turn, another thread's device on that display
  /// waits to draw (and draws once the turn ends); a device on the other lane does not wait.
  @Test func aDeviceWaitsForItsDisplaysTurn() throws {
    let display = try HeadlessDisplay.open(.surfaceless)
    #expect(display.exclusion.isExclusive, "llvmpipe's contexts take turns")
    let draw: @Sendable (GLDevice) -> Void = { device in
      guard let target = try? device.makeRenderTarget(RenderTargetDescriptor(width: 8, height: 8)) else { return }
      device.beginPass(target, action: PassAction(clearColor: .white))
      device.endPass()
      _ = try? device.readPixels(target)
    }
    let sameDisplay = SharedDisplayTests.callWhileHeld(display.exclusion, lane: 0, call: draw)
    #expect(!sameDisplay.beforeRelease, "a device on the display drew during another's turn")
    #expect(sameDisplay.returned)
    let otherLane = SharedDisplayTests.callWhileHeld(display.exclusion, lane: 1, call: draw)
    #expect(otherLane.beforeRelease, "a device on another lane waited for this display's turn")
    #expect(otherLane.returned)
  }

  /// Displays take turns by the driver they name: llvmpipe's ("swrast" on the surfaceless and
  /// device platforms, "kms_swrast" where gbm falls back to it) always, a GPU's never, and
  /// where the display names none, by what its platform may draw with (gbm: perhaps llvmpipe).
  @Test func displaysTakeTurnsByTheirDriver() throws {
    for display in [try HeadlessDisplay.open(.surfaceless), try HeadlessDisplay.open(.software)] {
      #expect(display.driverName == "swrast", "\(display.platformDescription)")
      #expect(display.exclusion.isExclusive, "\(display.platformDescription)")
    }
    let cases: [(software: Bool, gbm: Bool, driver: String?, needed: Bool)] = [
      (true, false, "swrast", true), (false, true, "kms_swrast", true), (false, false, "swrast", true),
      (true, false, "iris", false), (false, true, "radeonsi", false), (false, false, "nouveau", false),
      (true, false, nil, true), (false, true, nil, true), (false, false, nil, false),
    ]
    for (software, gbm, driver, needed) in cases {
      #expect(
        ContextExclusion.isNeeded(mayDrawInSoftware: software, isGBM: gbm, driverName: driver) == needed,
        "software \(software), gbm \(gbm), driver \(driver ?? "unnamed")")
    }
  }

  /// Two devices on one thread: freeing one while the other's context is current deletes
  /// nothing of the other's (both contexts name their first texture and buffer alike), so the
  /// other still draws its texture.
  @Test func freeingADeviceLeavesAnotherDevicesObjects() throws {
    var first: GLDevice? = try GLDevice(gpu: .surfaceless)
    _ = try first!.makeTexture(TextureDescriptor(width: 4, height: 4))
    _ = try TextureComposite(first!)
    let second = try GLDevice(gpu: .surfaceless)
    let red = [[UInt8]](repeating: [255, 0, 0, 255], count: 16).joined().map { $0 }
    let texture = try second.makeTexture(TextureDescriptor(width: 4, height: 4), pixels: red)
    let composite = try TextureComposite(second)
    first = nil
    let target = try second.makeRenderTarget(RenderTargetDescriptor(width: 4, height: 4))
    second.beginPass(target, action: PassAction(clearColor: .transparent))
    try composite.draw(texture)
    second.endPass()
    let image = try second.readPixels(target)
    #expect(Array(image.pixels.prefix(4)) == [255, 0, 0, 255], "the other device's texture or buffer was deleted")
  }

  /// A turn is recursive (one thread may enter again), and displays that need no turns (hardware
  /// drivers) never wait.
  @Test func turnsAreRecursiveAndOnlyWhereNeeded() {
    let exclusive = ContextExclusion(exclusive: true)
    exclusive.enter()
    exclusive.withTurn { exclusive.withTurn {} }
    exclusive.leave()
    let free = ContextExclusion(exclusive: false)
    free.enter()
    let entered = DispatchSemaphore(value: 0)
    Thread {
      free.enter()
      free.leave()
      entered.signal()
    }.start()
    #expect(entered.wait(timeout: .now() + 10) == .success, "an exclusion that is not exclusive made a thread wait")
    free.leave()
  }
}

/// Draws a texture over the whole target, texel for pixel (the `fill_extrusion_texture`
/// program that lays translucent buildings over a frame).
struct TextureComposite {
  let device: GLDevice
  let pipeline: PipelineHandle
  let opacity: UniformLocation
  let triangle: BufferHandle

  init(_ device: GLDevice) throws {
    self.device = device
    pipeline = try device.makePipeline(
      PipelineDescriptor(
        program: "fill_extrusion_texture",
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 8)], attributes: [VertexAttribute("a_position", .float2)])))
    opacity = device.uniform("u_opacity", of: pipeline)
    triangle = try device.makeBuffer(BufferDescriptor(kind: .vertex), contents: [Float]([-1, -1, 3, -1, -1, 3]))
  }

  func draw(_ texture: TextureHandle) throws {
    device.applyPipeline(pipeline)
    device.applyBindings(Bindings(vertexBuffers: [triangle], textures: [texture]))
    device.setUniform(opacity, .float(1))
    device.draw(count: 3)
  }
}
