import TesseraGL
import TesseraImage
import TesseraNumbers

/// Runs ``FramePlan``s on a ``GLDevice``: the only part of rendering with GL effects.
///
/// Pipelines are created the first time a plan uses them (so a scene compiles only the programs
/// it needs), built-in meshes are uploaded once, and the render target is kept while the frame
/// size stays the same (it gains a depth and stencil buffer with the first frame drawing with
/// them).
package final class FrameExecutor {
  /// The device drawn with.
  package let device: GLDevice
  /// 1 for no multisampling, 4 for 4× MSAA.
  package let samples: Int
  /// Tile buckets and textures that draws refer to by key.
  package let resources: GPUResourceCache

  /// Pipelines made so far, each with the locations of the uniforms set with it.
  private var pipelines: [Pipeline: MadePipeline] = [:]
  private var meshes: [BuiltinMesh: (buffer: BufferHandle, vertexCount: Int)] = [:]
  /// The frame's render target, and whether it has a depth and stencil buffer (made with the
  /// first frame that draws with them: a map of image tiles or flat layers never needs one).
  private var target: (handle: RenderTargetHandle, width: Int, height: Int, depthStencil: Bool)?
  /// One buffer holding every instance of a frame, rewritten each frame.
  private var instanceBuffer: BufferHandle?
  /// When frames are flushed part-way (``FlushSchedule``); by default as suits the device.
  package var flushRule: FlushSchedule.Rule
  /// Offscreen targets by name: their texture and the target drawing into it.
  private var offscreen: [String: (spec: OffscreenTarget, texture: TextureHandle, target: RenderTargetHandle)] = [:]

  /// A pipeline and its uniform locations, looked up once per slot (the table holds the slot,
  /// so its identity cannot be reused by another slot while it is in the table).
  private final class MadePipeline {
    let handle: PipelineHandle
    /// Whether its draws read or write depth or stencil.
    let usesDepthOrStencil: Bool
    var locations: [ObjectIdentifier: (slot: any AnyUniformSlot, location: UniformLocation)] = [:]

    init(handle: PipelineHandle, usesDepthOrStencil: Bool) {
      self.handle = handle
      self.usesDepthOrStencil = usesDepthOrStencil
    }
  }

  /// Whether the last frame's pass cleared the depth and stencil buffers (for tests).
  package private(set) var lastFrameClearedDepthAndStencil = false
  /// Whether the frame's render target has a depth and stencil buffer (for tests).
  package var targetHasDepthStencil: Bool { target?.depthStencil ?? false }

  /// Makes an executor drawing on `device` with `samples` samples per pixel, keeping at most
  /// about `cacheBudget` bytes of tile geometry and textures on the GPU.
  package init(device: GLDevice, samples: Int = 1, cacheBudget: Int = 512 << 20) {
    self.device = device
    self.samples = samples
    resources = GPUResourceCache(device: device, budget: cacheBudget)
    flushRule = FlushSchedule.rule(softwareRenderer: device.info.isSoftware)
  }

  deinit {
    for pipeline in pipelines.values { device.destroy(pipeline.handle) }
    for mesh in meshes.values { device.destroy(mesh.buffer) }
    if let target { device.destroy(target.handle) }
    if let instanceBuffer { device.destroy(instanceBuffer) }
    for made in offscreen.values {
      device.destroy(made.target)
      device.destroy(made.texture)
    }
  }

  /// Draws a plan into the executor's render target (made or resized as needed).
  package func execute(_ plan: FramePlan) throws(GLError) {
    let depthAndStencil = usesDepthOrStencil(plan)
    let handle = try renderTarget(width: plan.pixelWidth, height: plan.pixelHeight, depthStencil: depthAndStencil)
    let instanceOffsets = try uploadInstances(plan)
    // The frame's own pass begins (cleared) at its first draw: a prelude of offscreen passes
    // comes first.
    var framePassBegun = plan.commands.first?.key.pass != .prelude
    lastFrameClearedDepthAndStencil = depthAndStencil
    if framePassBegun { device.beginPass(handle, action: framePassAction(plan, depthAndStencil: depthAndStencil)) }
    /// The render target into a cached texture of the pass drawing into one (made for the pass).
    var cachedTarget: RenderTargetHandle?
    // A draw that fails (a pipeline that does not compile) still closes the pass, so the next
    // frame starts clean.
    defer {
      if device.isPassOpen { device.endPass() }
      if let cachedTarget { device.destroy(cachedTarget) }
    }
    var applied: Pipeline?
    var boundMesh: MeshReference?
    var flushes = FlushSchedule(flushRule)
    for (index, command) in plan.commands.enumerated() {
      if flushes.flushesBeforeCommand(isIdle: device.flushedWorkIsDone) {
        if flushRule.tracksCompletion { device.flushTracked() } else { device.flush() }
      }
      guard let kind = command.pipeline else {
        if let change = command.switchesTo {
          if device.isPassOpen { device.endPass() }
          if let made = cachedTarget {
            device.destroy(made)
            cachedTarget = nil
          }
          if let target = change {
            let into: RenderTargetHandle
            if let key = target.cachedTexture {
              let texture = try resources.renderableTexture(
                key, width: target.width, height: target.height, version: target.version)
              into = try device.makeRenderTarget(into: texture)
              cachedTarget = into
            } else {
              into = try offscreenTarget(target, frame: handle)
            }
            device.beginPass(
              into, action: PassAction(clearColor: target.clearColor, clearDepth: nil, clearStencil: nil))
          } else if framePassBegun {
            device.beginPass(handle, action: PassAction(clearColor: nil, clearDepth: nil, clearStencil: nil))
          } else {
            device.beginPass(handle, action: framePassAction(plan, depthAndStencil: depthAndStencil))
            framePassBegun = true
          }
          applied = nil
          boundMesh = nil
        } else {
          device.clearStencil()
        }
        continue
      }
      let pipeline = try self.pipeline(kind)
      device.setScissor(command.scissor)
      if applied != kind {
        device.applyPipeline(pipeline.handle)
        applied = kind
        boundMesh = nil
      }
      let vertexCount: Int
      switch command.mesh {
      case .builtin(let builtin):
        let mesh = try self.mesh(builtin)
        if boundMesh != command.mesh || !command.textures.isEmpty {
          device.applyBindings(Bindings(vertexBuffers: [mesh.buffer], textures: textures(command)))
          boundMesh = command.mesh
        }
        vertexCount = mesh.vertexCount
      case .instanced(let builtin, _):
        let mesh = try self.mesh(builtin)
        device.applyBindings(
          Bindings(
            vertexBuffers: [mesh.buffer, instanceBuffer!], vertexBufferOffsets: [0, instanceOffsets[index]],
            textures: textures(command)))
        boundMesh = nil
        vertexCount = mesh.vertexCount
      case .cached(let key, let part):
        guard let set = resources.meshes(key), let mesh = part == .main ? set.main : set.outline else {
          continue
        }
        // Layers sharing a bucket may draw it with different textures (dash patterns, ramps).
        if boundMesh != command.mesh || !command.textures.isEmpty {
          device.applyBindings(
            Bindings(
              vertexBuffers: [mesh.vertices] + (mesh.paint.map { [$0] } ?? []), indexBuffer: mesh.indices,
              textures: textures(command)))
          boundMesh = command.mesh
        }
        vertexCount = mesh.indexCount
        if let cull = command.cull, command.count == nil, command.instances == 1 {
          if let reference = command.stencilReference { device.setStencilReference(reference) }
          setUniforms(command.uniforms, pipeline)
          for range in visibleRanges(mesh, cull: cull, plan: plan) {
            device.draw(first: range.first, count: range.count)
            flushes.drew(range.count)
          }
          continue
        }
      case .cachedInstances(let builtin, let key):
        guard let instances = resources.instances(key) else { continue }
        let mesh = try self.mesh(builtin)
        device.applyBindings(
          Bindings(vertexBuffers: [mesh.buffer, instances.buffer], textures: textures(command)))
        boundMesh = nil
        setUniforms(command.uniforms, pipeline)
        device.draw(count: mesh.vertexCount, instances: instances.count)
        flushes.drew(mesh.vertexCount * instances.count)
        continue
      case .none:
        continue
      }
      if let reference = command.stencilReference { device.setStencilReference(reference) }
      setUniforms(command.uniforms, pipeline)
      let count = command.count ?? vertexCount
      device.draw(first: command.first, count: count, instances: command.instances)
      flushes.drew(count * command.instances)
    }
  }

  /// Sets the uniforms of a draw with the applied `pipeline`.
  private func setUniforms(_ uniforms: UniformValues, _ pipeline: MadePipeline) {
    for entry in uniforms.entries {
      let id = ObjectIdentifier(entry.slot)
      let location: UniformLocation
      if let known = pipeline.locations[id] {
        location = known.location
      } else {
        location = device.uniform(entry.slot.name, of: pipeline.handle)
        pipeline.locations[id] = (entry.slot, location)
      }
      device.setUniform(location, entry.value)
    }
  }

  /// Pixels a culled draw may reach beyond its chunks' boxes on screen (antialiased edges,
  /// 2-pixel outlines), added to the clip volume when testing chunks.
  static let cullPixels = 4.0

  /// The index ranges of a bucket mesh that may show in the frame (see ``MeshChunks``).
  private func visibleRanges(_ mesh: GPUResourceCache.Mesh, cull: CullVolume, plan: FramePlan)
    -> [(first: Int, count: Int)]
  {
    let clipMargin = (
      x: Float(2 * FrameExecutor.cullPixels / Double(plan.pixelWidth)),
      y: Float(2 * FrameExecutor.cullPixels / Double(plan.pixelHeight))
    )
    return MeshChunks.visibleRanges(
      mesh.chunks, matrix: cull.matrix, margin: Float(cull.margin), height: mesh.maxHeight, clipMargin: clipMargin)
  }

  /// Makes `pipelines` and draws one empty triangle with each into a `pixelWidth` ×
  /// `pixelHeight` target, so that drivers that compile shader variants at draw time
  /// (llvmpipe: several milliseconds each) do it now, for instance while other threads still
  /// load and tessellate the frame's tiles. Nothing visible is drawn; the next frame clears the
  /// target anyway.
  ///
  /// `shouldStop` is asked before each pipeline: warming stops once it returns true (when the
  /// work it overlaps has finished, the frame is better drawn at once).
  package func warmUp(
    _ pipelines: [Pipeline], pixelWidth: Int, pixelHeight: Int, shouldStop: () -> Bool = { false }
  ) throws(GLError) {
    let handle = try renderTarget(
      width: pixelWidth, height: pixelHeight, depthStencil: pipelines.contains { $0.descriptor.usesDepthOrStencil })
    let zeros = try device.makeBuffer(
      BufferDescriptor(kind: .vertex, label: "warm-up vertices"), contents: [Float](repeating: 0, count: 256))
    defer { device.destroy(zeros) }
    let indices = try device.makeBuffer(
      BufferDescriptor(kind: .index, label: "warm-up indices"), contents: [UInt32](repeating: 0, count: 3))
    defer { device.destroy(indices) }
    let texture = try device.makeTexture(
      TextureDescriptor(width: 1, height: 1, filter: .linear, label: "warm-up texture"), pixels: [0, 0, 0, 0])
    defer { device.destroy(texture) }
    device.beginPass(handle, action: PassAction(clearColor: .transparent))
    defer { if device.isPassOpen { device.endPass() } }
    for kind in pipelines {
      guard !shouldStop() else { break }
      let descriptor = kind.descriptor
      device.applyPipeline(try pipeline(kind).handle)
      device.applyBindings(
        Bindings(
          vertexBuffers: Array(repeating: zeros, count: descriptor.layout.buffers.count), indexBuffer: indices,
          textures: [texture]))
      device.draw(count: 3)
    }
  }

  /// The uploaded textures a command binds (missing ones are skipped by the planner), and
  /// offscreen targets' textures.
  private func textures(_ command: DrawCommand) -> [TextureHandle] {
    command.textures.compactMap { key in
      if let offscreenKey = key.base as? OffscreenTextureKey { return offscreen[offscreenKey.name]?.texture }
      return resources.texture(key)
    }
  }

  /// Reads the last frame's pixels (premultiplied unless `alpha` is `.straight`).
  package func readPixels(alpha: AlphaRepresentation = .premultiplied) throws(GLError) -> RGBAImage {
    guard let target else { preconditionFailure("readPixels before any frame was drawn") }
    return try device.readPixels(target.handle, alpha: alpha)
  }

  /// Uploads the instance data of every instanced command in one buffer; returns each
  /// command's byte offset into it (0 for other commands).
  private func uploadInstances(_ plan: FramePlan) throws(GLError) -> [Int] {
    var offsets = [Int](repeating: 0, count: plan.commands.count)
    var bytes: [UInt8] = []
    for (index, command) in plan.commands.enumerated() {
      guard case .instanced(_, let data) = command.mesh else { continue }
      offsets[index] = bytes.count
      bytes += data.bytes
    }
    guard !bytes.isEmpty else { return offsets }
    if let instanceBuffer {
      try device.updateBuffer(instanceBuffer, contents: bytes)
    } else {
      instanceBuffer = try device.makeBuffer(
        BufferDescriptor(kind: .vertex, usage: .stream, label: "frame instances"), contents: bytes)
    }
    return offsets
  }

  /// The frame's render target at `width` × `height` pixels, with a depth and stencil buffer
  /// when `depthStencil` is true or the target kept has one. On llvmpipe each buffer of a new
  /// target is written in full when made (3 MiB each at 1024×768): a first frame drawing
  /// without depth and stencil does not pay for theirs. A later frame drawing with them makes
  /// the target again, once.
  private func renderTarget(width: Int, height: Int, depthStencil: Bool) throws(GLError) -> RenderTargetHandle {
    if let target, target.width == width, target.height == height, target.depthStencil || !depthStencil {
      return target.handle
    }
    // Targets drawing with the old frame's depth buffer go with it.
    for (name, made) in offscreen where made.spec.sharesFrameDepth {
      device.destroy(made.target)
      device.destroy(made.texture)
      offscreen[name] = nil
    }
    if let target { device.destroy(target.handle) }
    target = nil
    let handle = try device.makeRenderTarget(
      RenderTargetDescriptor(width: width, height: height, samples: samples, depthStencil: depthStencil))
    target = (handle, width, height, depthStencil)
    return handle
  }

  /// The render target of `spec` (made, or remade at a new size or format): its format when
  /// the device renders into it, else RGBA8; drawing with the depth buffer of `frame` when the
  /// spec says so.
  private func offscreenTarget(_ spec: OffscreenTarget, frame: RenderTargetHandle) throws(GLError)
    -> RenderTargetHandle
  {
    if let made = offscreen[spec.name], made.spec.width == spec.width, made.spec.height == spec.height,
      made.spec.format == spec.format, made.spec.sharesFrameDepth == spec.sharesFrameDepth
    {
      return made.target
    }
    if let made = offscreen.removeValue(forKey: spec.name) {
      device.destroy(made.target)
      device.destroy(made.texture)
    }
    for format in spec.format == .rgba8 ? [TextureFormat.rgba8] : [spec.format, .rgba8] {
      let texture = try device.makeTexture(
        TextureDescriptor(
          width: spec.width, height: spec.height, format: format, filter: .linear, label: "\(spec)"))
      do {
        let target =
          spec.sharesFrameDepth
          ? try device.makeRenderTarget(into: texture, sharingDepthStencilOf: frame)
          : try device.makeRenderTarget(into: texture)
        offscreen[spec.name] = (spec, texture, target)
        return target
      } catch {
        device.destroy(texture)
        if format == .rgba8 { throw error }
      }
    }
    preconditionFailure("RGBA8 is always tried last")
  }

  private func pipeline(_ kind: Pipeline) throws(GLError) -> MadePipeline {
    if let pipeline = pipelines[kind] { return pipeline }
    let descriptor = kind.descriptor
    let pipeline = MadePipeline(
      handle: try device.makePipeline(descriptor), usesDepthOrStencil: descriptor.usesDepthOrStencil)
    pipelines[kind] = pipeline
    return pipeline
  }

  /// Whether any draw of `plan` reads or writes depth or stencil, the plan clears stencil, or
  /// it draws into a target sharing the frame's depth and stencil. Only then does the frame's
  /// target need them and its pass clear them: a frame without (image tiles, flat maps below
  /// the buildings' zoom) leaves their memory untouched, and on llvmpipe a clear writes every
  /// depth and stencil texel of the frame (3 MiB at 1024×768) at each frame's start.
  private func usesDepthOrStencil(_ plan: FramePlan) -> Bool {
    var last: Pipeline?
    for command in plan.commands {
      guard let kind = command.pipeline else {
        // A command without a pipeline either switches targets (to one drawing with the
        // frame's depth and stencil, or not) or clears the stencil.
        guard let change = command.switchesTo else { return true }
        if change?.sharesFrameDepth == true { return true }
        continue
      }
      if kind == last { continue }
      last = kind
      if pipelines[kind]?.usesDepthOrStencil ?? kind.descriptor.usesDepthOrStencil { return true }
    }
    return false
  }

  /// How the frame's own pass begins: cleared to the plan's colour, depth and stencil cleared
  /// when the plan uses them.
  private func framePassAction(_ plan: FramePlan, depthAndStencil: Bool) -> PassAction {
    PassAction(
      clearColor: plan.clearColor, clearDepth: depthAndStencil ? 1 : nil, clearStencil: depthAndStencil ? 0 : nil)
  }

  private func mesh(_ mesh: BuiltinMesh) throws(GLError) -> (buffer: BufferHandle, vertexCount: Int) {
    if let uploaded = meshes[mesh] { return uploaded }
    let vertices = BuiltinMeshData.vertices(mesh)
    let buffer = try device.makeBuffer(BufferDescriptor(kind: .vertex, label: "\(mesh)"), contents: vertices)
    let uploaded = (buffer, vertices.count / BuiltinMeshData.floatsPerVertex(mesh))
    meshes[mesh] = uploaded
    return uploaded
  }
}
