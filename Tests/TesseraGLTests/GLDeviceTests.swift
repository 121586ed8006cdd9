import Foundation
import Synchronization
import TesseraGL
import TesseraImage
import TesseraShaders
import TesseraTestSupport
import Testing

/// Draws with the `solid` program: a quad given in clip space, one colour.
struct SolidQuad {
  let device: GLDevice
  let pipeline: PipelineHandle
  let matrix: UniformLocation
  let color: UniformLocation

  init(_ device: GLDevice, blend: BlendMode = .premultipliedOver, depth: DepthMode = .disabled) throws {
    self.device = device
    pipeline = try device.makePipeline(
      PipelineDescriptor(
        program: "solid",
        layout: VertexLayout(
          buffers: [VertexBufferLayout(stride: 8)], attributes: [VertexAttribute("a_position", .float2)]),
        blend: blend, depth: depth))
    matrix = device.uniform("u_matrix", of: pipeline)
    color = device.uniform("u_color", of: pipeline)
  }

  /// Draws the triangle list `vertices` (clip-space x, y pairs, at clip-space depth `z`) in
  /// premultiplied `rgba`.
  func draw(_ vertices: [Float], rgba: (Float, Float, Float, Float), z: Float = 0) throws {
    let buffer = try device.makeBuffer(BufferDescriptor(kind: .vertex), contents: vertices)
    defer { device.destroy(buffer) }
    device.applyPipeline(pipeline)
    device.applyBindings(Bindings(vertexBuffers: [buffer]))
    device.setUniform(matrix, .mat4([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, z, 1]))
    device.setUniform(color, .vec4(rgba.0, rgba.1, rgba.2, rgba.3))
    device.draw(count: vertices.count / 2)
  }
}

/// A quad over the top half of clip space, and a triangle with a diagonal edge.
let topHalf: [Float] = [-1, 0, 1, 0, 1, 1, -1, 0, 1, 1, -1, 1]
let diagonal: [Float] = [-1, -1, 1, -1, -1, 1]

@Suite struct GLDeviceTests {
  @Test func everyEmbeddedProgramCompilesAndLinks() throws {
    let device = try GLDevice(gpu: .surfaceless)
    let compiled = try device.compilePrograms()
    #expect(compiled.sorted() == ShaderLibrary.programs.keys.sorted())
    #expect(compiled.count >= 2)
  }

  @Test func everyShaderFileIsRegistered() throws {
    let folder = PackagePaths.path("Shaders/programs")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".glsl") }
    var names = Set<String>()
    for file in files {
      let stem = String(file.dropLast(".glsl".count))
      let parts = stem.split(separator: ".")
      #expect(
        parts.count == 2 && ["vertex", "fragment"].contains(String(parts[1])),
        "\(file): name it <program>.vertex.glsl or .fragment.glsl")
      names.insert(String(parts[0]))
    }
    #expect(
      names == Set(ShaderLibrary.programs.keys),
      "every program in Shaders/programs must be listed in ShaderLibrary.programs")
  }

  @Test func shaderErrorsNameTheProgramAndStage() throws {
    let device = try GLDevice(gpu: .surfaceless)
    #expect(throws: GLError.unknownProgram("nope")) { try device.compilePrograms(["nope"]) }
  }

  /// Tile programs compile with clip planes where the device has them (llvmpipe does);
  /// asking for more planes than the device has is an error naming the program.
  @Test func clipPlanePipelinesNeedTheDevicesPlanes() throws {
    let device = try GLDevice(gpu: .surfaceless)
    let limit = device.info.limits.maxClipDistances
    #expect(limit >= 4, "llvmpipe has GL_EXT_clip_cull_distance")
    let layout = VertexLayout(
      buffers: [VertexBufferLayout(stride: 8)], attributes: [VertexAttribute("a_pos", .float2)])
    for program in ["fill", "fill_outline", "line"] {
      _ = try device.makePipeline(PipelineDescriptor(program: program, layout: layout, clipDistances: 4))
    }
    #expect(throws: GLError.unsupportedClipDistances(program: "fill", requested: limit + 1, maximum: limit)) {
      try device.makePipeline(PipelineDescriptor(program: "fill", layout: layout, clipDistances: limit + 1))
    }
  }

  @Test func readbackIsTopRowFirstAndPremultiplied() throws {
    let device = try GLDevice(gpu: .surfaceless)
    let target = try device.makeRenderTarget(RenderTargetDescriptor(width: 8, height: 6))
    let quad = try SolidQuad(device)
    device.beginPass(target, action: PassAction(clearColor: .transparent))
    try quad.draw(topHalf, rgba: (0, 0.5, 0, 0.5))
    device.endPass()
    let premultiplied = try device.readPixels(target)
    #expect(premultiplied.alpha == .premultiplied)
    #expect(premultiplied.pixel(x: 3, y: 0) == (0, 128, 0, 128))
    #expect(premultiplied.pixel(x: 3, y: 5) == (0, 0, 0, 0))
    let straight = try device.readPixels(target, alpha: .straight)
    #expect(straight.pixel(x: 3, y: 0) == (0, 255, 0, 128))
  }

  @Test func surfacelessAndDevicePlatformsRenderTheSameBytes() throws {
    var images: [RGBAImage] = []
    for gpu in [GPUSelection.surfaceless, .software] {
      let device = try GLDevice(gpu: gpu)
      #expect(device.info.isSoftware)
      let target = try device.makeRenderTarget(RenderTargetDescriptor(width: 64, height: 48))
      let quad = try SolidQuad(device)
      device.beginPass(target, action: PassAction(clearColor: .lightGray))
      try quad.draw(diagonal, rgba: (0.5, 0.1, 0.1, 0.75))
      device.endPass()
      images.append(try device.readPixels(target))
    }
    #expect(images[0] == images[1])
    #expect(!images[0].isUniform)
  }

  @Test func devicePlatformReportsItsDevice() throws {
    let device = try GLDevice(gpu: .software)
    #expect(device.info.platform.contains("device platform"))
    #expect(device.info.platform.contains("software"))
    let surfaceless = try GLDevice(gpu: .surfaceless)
    #expect(surfaceless.info.platform == "surfaceless platform")
  }

  @Test func multisamplingSmoothsEdges() throws {
    func render(samples: Int) throws -> RGBAImage {
      let device = try GLDevice(gpu: .surfaceless)
      let target = try device.makeRenderTarget(RenderTargetDescriptor(width: 32, height: 32, samples: samples))
      let quad = try SolidQuad(device)
      device.beginPass(target, action: PassAction(clearColor: .white))
      try quad.draw(diagonal, rgba: (0, 0, 0, 1))
      device.endPass()
      return try device.readPixels(target)
    }
    let aliased = Set(try render(samples: 1).pixels)
    let smooth = Set(try render(samples: 4).pixels)
    #expect(aliased.isSubset(of: [0, 255]))
    #expect(smooth.contains { $0 != 0 && $0 != 255 })
  }

  @Test(arguments: [(0, 0), (100_000, 100_000), (16385, 10), (-3, 5)])
  func renderTargetSizesOutsideTheLimitAreRefused(_ width: Int, _ height: Int) throws {
    let device = try GLDevice(gpu: .surfaceless)
    do {
      _ = try device.makeRenderTarget(RenderTargetDescriptor(width: width, height: height))
      Issue.record("a \(width)x\(height) render target was made")
    } catch {
      #expect(error.description.contains("\(width)x\(height) is not allowed"))
      #expect(error.description.contains("1...\(device.info.limits.maxRenderTargetSize)"))
    }
  }

  @Test func unsupportedSampleCountIsRefused() throws {
    let device = try GLDevice(gpu: .surfaceless)
    #expect(throws: GLError.unsupportedSamples(requested: 64, maximum: device.info.limits.maxSamples)) {
      try device.makeRenderTarget(RenderTargetDescriptor(width: 4, height: 4, samples: 64))
    }
  }

  @Test func resourcesAreReleased() throws {
    let device = try GLDevice(gpu: .surfaceless)
    for round in 0..<200 {
      let buffer = try device.makeBuffer(
        BufferDescriptor(kind: .vertex), contents: [Float](repeating: Float(round), count: 64))
      let texture = try device.makeTexture(
        TextureDescriptor(width: 16, height: 16), pixels: [UInt8](repeating: 7, count: 1024))
      let target = try device.makeRenderTarget(
        RenderTargetDescriptor(width: 16, height: 16, samples: round % 2 == 0 ? 1 : 4))
      device.destroy(buffer)
      device.destroy(texture)
      device.destroy(target)
    }
    let counts = device.resourceCounts
    #expect(counts.buffers == 0 && counts.textures == 0 && counts.renderTargets == 0)
  }

  /// A target drawing into a texture: what a pass draws there is read back (and could be
  /// sampled); additive blending accumulates; half-float textures can be drawn into.
  @Test func texturesCanBeDrawnInto() throws {
    let device = try GLDevice(gpu: .surfaceless)
    let texture = try device.makeTexture(TextureDescriptor(width: 8, height: 6))
    let target = try device.makeRenderTarget(into: texture)
    #expect(device.size(of: target) == (8, 6))
    let quad = try SolidQuad(device, blend: .additive)
    device.beginPass(target, action: PassAction(clearColor: Color(red: 0.25, green: 0, blue: 0, alpha: 1)))
    try quad.draw(topHalf, rgba: (0.25, 0.5, 0, 0))
    try quad.draw(topHalf, rgba: (0.25, 0, 0, 0))
    device.endPass()
    let image = try device.readPixels(target)
    #expect(image.pixel(x: 3, y: 0) == (192, 128, 0, 255))
    #expect(image.pixel(x: 3, y: 5) == (64, 0, 0, 255))
    let half = try device.makeTexture(TextureDescriptor(width: 4, height: 4, format: .rgba16Float))
    let halfTarget = try device.makeRenderTarget(into: half)
    device.destroy(halfTarget)
    device.destroy(half)
    device.destroy(target)
    device.destroy(texture)
    #expect(device.resourceCounts.textures == 0 && device.resourceCounts.renderTargets == 0)
  }

  /// A target drawing into a texture with another target's depth buffer (multisampled as that
  /// one is): what it draws is hidden by what the other drew nearer, and hides what the other
  /// draws farther later; its colour is resolved into the texture.
  @Test(arguments: [1, 4])
  func aTextureTargetCanShareTheDepthBuffer(samples: Int) throws {
    let device = try GLDevice(gpu: .surfaceless)
    let frame = try device.makeRenderTarget(RenderTargetDescriptor(width: 8, height: 6, samples: samples))
    let texture = try device.makeTexture(TextureDescriptor(width: 8, height: 6))
    let shared = try device.makeRenderTarget(into: texture, sharingDepthStencilOf: frame)
    let quad = try SolidQuad(device, blend: .replace, depth: .readWrite)
    let whole: [Float] = [-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1]
    device.beginPass(frame, action: PassAction(clearColor: .white))
    try quad.draw(topHalf, rgba: (1, 0, 0, 1), z: -0.5)
    device.endPass()
    device.beginPass(shared, action: PassAction(clearColor: .transparent, clearDepth: nil, clearStencil: nil))
    try quad.draw(whole, rgba: (0, 0, 1, 1), z: 0)
    device.endPass()
    device.beginPass(frame, action: PassAction(clearColor: nil, clearDepth: nil, clearStencil: nil))
    try quad.draw(whole, rgba: (0, 1, 0, 1), z: 0.5)
    device.endPass()
    let drawn = try device.readPixels(shared)
    #expect(drawn.pixel(x: 3, y: 1) == (0, 0, 0, 0))
    #expect(drawn.pixel(x: 3, y: 4) == (0, 0, 255, 255))
    let frameImage = try device.readPixels(frame)
    #expect(frameImage.pixel(x: 3, y: 1) == (255, 0, 0, 255))
    #expect(frameImage.pixel(x: 3, y: 4) == (255, 255, 255, 255))
    device.destroy(shared)
    device.destroy(texture)
    device.destroy(frame)
    #expect(device.resourceCounts.textures == 0 && device.resourceCounts.renderTargets == 0)
  }

  @Test func texturesLargerThanTheLimitAreRefused() throws {
    let device = try GLDevice(gpu: .surfaceless)
    let limit = device.info.limits.maxTextureSize
    #expect(throws: GLError.self) { try device.makeTexture(TextureDescriptor(width: limit + 1, height: 1)) }
  }
}

@Suite struct GPUSelectionTests {
  @Test(arguments: [
    ("auto", GPUSelection.auto), ("surfaceless", .surfaceless), ("software", .software), ("device:0", .device(0)),
    ("device:12", .device(12)), ("gbm", .gbm(renderNode: nil)),
    ("gbm:/dev/dri/renderD129", .gbm(renderNode: "/dev/dri/renderD129")),
  ])
  func parses(_ text: String, _ expected: GPUSelection) throws {
    #expect(try GPUSelection(parsing: text) == expected)
    #expect(expected.description == text)
  }

  @Test(arguments: ["", "gpu", "device:", "device:-1", "device:x", "gbm:"])
  func rejects(_ text: String) {
    #expect(throws: EGLError.invalidSelection(text)) { try GPUSelection(parsing: text) }
  }

  @Test func missingDeviceAndRenderNodeGiveClearErrors() throws {
    let count = try HeadlessGPUs.devices().count
    #expect(throws: EGLError.noSuchDevice(index: 99, count: count)) { try HeadlessDisplay.open(.device(99)) }
    if HeadlessGPUs.renderNodes().isEmpty {
      do {
        _ = try HeadlessDisplay.open(.gbm(renderNode: nil))
        Issue.record("gbm opened without a render node")
      } catch {
        #expect(error.description.contains("no DRM render node"))
      }
    }
    do {
      _ = try HeadlessDisplay.open(.gbm(renderNode: "/nonexistent/renderD200"))
      Issue.record("gbm opened a missing render node")
    } catch {
      #expect(error.description.contains("/nonexistent/renderD200: cannot open"))
    }
  }

  @Test func theSameSelectionSharesOneDisplay() throws {
    #expect(try HeadlessDisplay.open(.surfaceless) === HeadlessDisplay.open(.surfaceless))
  }

  /// Threads asking for one display at once (one of them opening it, the others waiting) all
  /// get the same display.
  @Test func threadsOpeningADisplayAtOnceShareIt() throws {
    let displays = Mutex<[ObjectIdentifier]>([])
    HeadlessDisplay.startOpening(.surfaceless)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      if let display = try? HeadlessDisplay.open(.surfaceless, lane: 1) {
        displays.withLock { $0.append(ObjectIdentifier(display)) }
      }
    }
    let opened = displays.withLock { $0 }
    #expect(opened.count == 4)
    #expect(Set(opened).count == 1)
    #expect(try opened.first == ObjectIdentifier(HeadlessDisplay.open(.surfaceless, lane: 1)))
  }

  /// Lanes are EGL displays of their own (on llvmpipe each with its own rasteriser), handed out
  /// once each; lane numbers wrap around the platform's lanes.
  @Test func lanesAreDisplaysOfTheirOwn() throws {
    let first = try HeadlessDisplay.open(.surfaceless, lane: 0)
    let second = try HeadlessDisplay.open(.surfaceless, lane: 1, rasterThreads: 1)
    #expect(first !== second)
    #expect(first.display != second.display)
    #expect(second.lane == 1)
    #expect(try HeadlessDisplay.open(.surfaceless) === first)
    #expect(try HeadlessDisplay.open(.surfaceless, lane: HeadlessDisplay.laneCount) === first)
    #expect(try HeadlessDisplay.open(.surfaceless, lane: HeadlessDisplay.laneCount + 1) === second)
    #expect(HeadlessDisplay.lanes(.gbm(renderNode: nil)) == 1)
    #expect(HeadlessDisplay.lanes(.surfaceless) == HeadlessDisplay.laneCount)
  }

  /// The same drawing on two lanes, on two threads at once, gives the same pixels.
  @Test func lanesDrawTheSamePixels() throws {
    let images = Mutex<[Int: [UInt8]]>([:])
    let done = DispatchGroup()
    for lane in 0..<2 {
      done.enter()
      let thread = Thread {
        defer { done.leave() }
        guard let device = try? GLDevice(gpu: .surfaceless, lane: lane, rasterThreads: 1),
          let target = try? device.makeRenderTarget(RenderTargetDescriptor(width: 64, height: 48)),
          let quad = try? SolidQuad(device)
        else { return }
        device.beginPass(target, action: PassAction(clearColor: .transparent))
        try? quad.draw(diagonal, rgba: (0.1, 0.3, 0.5, 0.6))
        device.endPass()
        guard let image = try? device.readPixels(target) else { return }
        images.withLock { $0[lane] = image.pixels }
      }
      thread.start()
    }
    done.wait()
    let drawn = images.withLock { $0 }
    #expect(drawn.count == 2)
    #expect(drawn[0] == drawn[1])
    #expect(drawn[0].map { $0.contains { $0 != 0 } } == true)
  }

  @Test func errorsUseEGLNames() {
    #expect(
      EGLError.call(name: "eglInitialize", code: 0x3001).description == "eglInitialize failed: EGL_NOT_INITIALIZED")
    #expect(GLError.call(name: "glTexImage2D", code: 0x0505).description == "glTexImage2D failed: GL_OUT_OF_MEMORY")
  }
}

/// `#pragma paint:` lines expand to the attribute-or-uniform blocks every paint property needs.
@Suite struct PaintPragmaTests {
  @Test func vertexStagesDeclareAttributesBlendWeightsAndVaryings() {
    let source = "#pragma paint: define vec4 color\nvoid main() {\n  #pragma paint: initialize float width\n}"
    let expanded = PaintPragma.expand(source, stage: .vertex)
    for line in [
      "#ifdef HAS_ATTR_COLOR", "in vec4 a_color_a;", "in vec4 a_color_b;", "uniform float u_color_t;",
      "out vec4 v_color;", "flat out vec4 v_color;", "uniform vec4 u_color;",
      "  float width = mix(a_width.x, a_width.y, u_width_t);", "  float width = u_width;", "  v_width = width;",
      "  #if defined(HAS_ATTR_WIDTH) || defined(PAINT_VARYINGS)",
    ] {
      #expect(expanded.split(separator: "\n").contains(Substring(line)), "missing \(line)")
    }
    #expect(!expanded.contains("#pragma"))
  }

  @Test func fragmentStagesReadTheVaryingOrTheUniform() {
    let expanded = PaintPragma.expand(
      "#pragma paint: define float blur\n#pragma paint: initialize float blur", stage: .fragment)
    #expect(
      expanded
        == "#ifdef PAINT_VARYINGS\nflat in float v_blur;\n#elif defined(HAS_ATTR_BLUR)\nin float v_blur;\n"
        + "#else\nuniform float u_blur;\n#endif\n"
        + "#if defined(HAS_ATTR_BLUR) || defined(PAINT_VARYINGS)\nfloat blur = v_blur;\n#else\nfloat blur = u_blur;\n#endif"
    )
  }

  @Test func fragmentPaintIsWhatTheFragmentStageDeclares() {
    #expect(
      PaintPragma.definedNames(in: "#pragma paint: define vec4 color\n  #pragma paint: initialize vec4 color\n")
        == ["color"])
    #expect(ShaderLibrary.fragmentPaint(ofProgram: "line") == ["color", "opacity", "blur"])
    #expect(ShaderLibrary.fragmentPaint(ofProgram: "fill_extrusion").isEmpty)
    #expect(ShaderLibrary.fragmentPaint(ofProgram: "no such program").isEmpty)
  }

  /// Every paint property a fragment stage reads is written by its vertex stage (a flat varying
  /// left unwritten would compile and draw undefined values).
  @Test func vertexStagesWriteEveryPaintPropertyTheFragmentStageReads() throws {
    for name in ShaderLibrary.names {
      let program = try #require(ShaderLibrary.program(named: name))
      for property in ShaderLibrary.fragmentPaint(ofProgram: name) {
        let lines = program.vertex.split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }
        #expect(lines.contains("v_\(property) = \(property);"), "\(name): \(property) is not written")
      }
    }
  }

  /// Every program compiles and links with every paint property per vertex too, and with paint
  /// passed as flat varyings (constant, and per vertex).
  @Test func everyDataDrivenVariantCompiles() throws {
    let device = try GLDevice(gpu: .surfaceless)
    for (name, program) in ShaderLibrary.programs {
      let source = program.vertex + program.fragment
      let pragmas = source.split(separator: "\n").filter { $0.drop { $0 == " " }.hasPrefix("#pragma paint:") }
      #expect(pragmas.isEmpty, "\(name) has unexpanded pragmas: \(pragmas)")
      let defines = source.split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix("#ifdef HAS_ATTR_") else { return nil }
        return String(line.dropFirst("#ifdef ".count))
      }
      guard !defines.isEmpty else { continue }
      let attributes = Dictionary(defines.map { ($0, "1") }) { a, _ in a }
      try device.compilePrograms([name], defines: attributes)
      try device.compilePrograms([name], defines: [PaintPragma.varyingsDefine: "1"])
      try device.compilePrograms([name], defines: attributes.merging([PaintPragma.varyingsDefine: "1"]) { a, _ in a })
    }
  }
}

/// `#pragma pattern:` lines expand to the pattern paint every `PATTERN` variant shares.
@Suite struct PatternPragmaTests {
  @Test func stagesDeclareWhatTheyNeed() {
    let vertex = PatternPragma.expand(
      "#pragma pattern: define\nvoid main() {\n  #pragma pattern: position a_pos\n}", stage: .vertex)
    for line in [
      "in vec4 a_pattern;                 // the image's corners in the atlas, pixels", "uniform vec4 u_pattern;",
      "out vec2 v_pattern_pos;",
      "vec2 patternPosition(vec2 upper, vec2 lower, vec2 size, float ratio, vec2 position) {",
      "  v_pattern_pos = patternPosition(u_pixel_coord_upper, u_pixel_coord_lower, patternSize, u_tile_ratio, a_pos);",
    ] {
      #expect(vertex.split(separator: "\n").contains(Substring(line)), "missing \(line)")
    }
    let fragment = PatternPragma.expand("#pragma pattern: define", stage: .fragment)
    #expect(fragment.contains("vec4 patternColor() {") && fragment.contains("uniform sampler2D u_image;"))
    #expect(!vertex.contains("#pragma") && !fragment.contains("#pragma"))
    #expect(PatternPragma.expand("#pragma pattern: functions", stage: .vertex).hasPrefix("vec2 patternPosition("))
  }

  /// The pattern, gradient and dash variants compile and link, with patterns per vertex too, and
  /// those of a translucent extrusion layer's composite.
  @Test func patternGradientAndDashVariantsCompile() throws {
    let device = try GLDevice(gpu: .surfaceless)
    for name in ["fill", "fill_outline", "fill_extrusion", "line"] {
      try device.compilePrograms([name], defines: ["PATTERN": "1"])
      try device.compilePrograms([name], defines: ["PATTERN": "1", "HAS_ATTR_PATTERN": "1"])
    }
    for defines in [[:], ["PATTERN": "1"], ["COVERAGE": "1"]] {
      try device.compilePrograms(["fill_extrusion_texture"], defines: defines)
    }
    try device.compilePrograms(["line"], defines: ["GRADIENT": "1"])
    try device.compilePrograms(["line"], defines: ["DASHED": "1", "HAS_ATTR_WIDTH": "1"])
    try device.compilePrograms(["background_pattern"])
  }
}
