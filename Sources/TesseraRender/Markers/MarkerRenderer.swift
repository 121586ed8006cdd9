import Foundation
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// A group of marker instances drawn in one call: one atlas page, flat or billboard.
package struct MarkerBatchKey: Sendable, Hashable, CustomStringConvertible {
  package let page: Int
  package let isFlat: Bool

  package var description: String { "markers page \(page) \(isFlat ? "flat" : "billboard")" }
}

/// The pipeline of marker sprites (the `marker` program, instanced): lying on the ground or
/// facing the screen, `exact` when every instance is placed on whole pixels and read texel for
/// pixel.
package struct MarkerPipeline: PipelineVariant {
  package let isFlat: Bool
  package let isExact: Bool

  package var descriptor: PipelineDescriptor {
    var defines: [String: String] = [:]
    if isFlat { defines["FLAT"] = "1" }
    if isExact { defines["EXACT"] = "1" }
    return PipelineDescriptor(
      program: "marker", defines: defines,
      layout: VertexLayout(
        buffers: [
          VertexBufferLayout(stride: 8),
          VertexBufferLayout(stride: MarkerRenderer.floatsPerInstance * 4, stepRate: .perInstance),
        ],
        attributes: [
          VertexAttribute("a_corner", .float2, buffer: 0),
          VertexAttribute("a_position", .float4, buffer: 1, offset: 0),
          VertexAttribute("a_size_anchor", .float4, buffer: 1, offset: 16),
          VertexAttribute("a_texture_rect", .float4, buffer: 1, offset: 32),
          VertexAttribute("a_style", .float4, buffer: 1, offset: 48),
          VertexAttribute("a_part", .float4, buffer: 1, offset: 64),
          VertexAttribute("a_pixel", .float4, buffer: 1, offset: 80),
        ]),
      primitive: .triangleStrip, label: description)
  }

  package var description: String { isFlat ? "markers flat" : "markers" }
}

/// Draws markers as instanced sprites: icons packed into shared atlas pages, instance data on
/// the GPU, at most two draws (flat, billboard) per page.
///
/// Positions are stored as two floats per axis (world units, high and low parts) and subtracted
/// from the camera target on the GPU, so markers stay exact at zoom 22. Small sets keep all
/// their instances on the GPU until the markers change; sets of ``occlusionThreshold`` markers
/// or more are culled on the CPU per camera (see ``MarkerOcclusion``) and only the visible
/// part of each visible marker is drawn.
package final class MarkerRenderer {
  /// Floats per instance (96 bytes).
  static let floatsPerInstance = 24

  package let resources: GPUResourceCache
  private var layout: MarkerAtlasLayout
  private var batches: [MarkerBatchKey] = []
  /// The markers, their batch and instance data (all of them; a frame may draw a subset).
  private(set) var sprites: [MarkerSprite] = []
  private(set) var spriteBatches: [MarkerBatchKey] = []
  private var instanceData: [Float] = []
  /// The pixel density the instance data was made for.
  private(set) var scale = 1.0
  /// Occlusion masks of the icons (small icons only).
  private(set) var masks: [IconKey: MarkerOcclusion.Masks] = [:]
  /// The camera the culled instances were made for (nil: every sprite is uploaded in full).
  private var culledFor: CameraTransform?
  private var uploadedAll = false
  /// Batches drawn texel for pixel this frame.
  private var exactBatches = Set<MarkerBatchKey>()
  /// Markers from this many on are culled against each other.
  package var occlusionThreshold = 200
  /// The sprites given to the last ``update(sprites:icons:scale:)``.
  package private(set) var spriteCount = 0
  /// The sprites the last frame drew.
  package private(set) var drawnCount = 0

  /// Every icon image in the atlas (premultiplied), kept to lay the atlas out again.
  private var atlasImages: [IconKey: RGBAImage] = [:]
  /// The largest page side (texels): the GL limit, at most 4096.
  private let maxPageSize: Int

  package init(resources: GPUResourceCache) {
    self.resources = resources
    maxPageSize = min(resources.device.info.limits.maxTextureSize, 4096)
    layout = MarkerAtlasLayout(pageSize: min(256, maxPageSize))
  }

  /// The texture of an atlas page.
  static func atlasKey(page: Int) -> ResourceKey {
    ResourceKey(AtlasPageKey(atlas: "markers", page: page))
  }

  /// What the markers hold on the GPU: atlas page bytes and instance bytes.
  package var gpuBytes: (atlas: Int, instances: Int) {
    let atlas = (0..<layout.pageCount).reduce(0) {
      $0 + resources.pinnedTextureBytes(MarkerRenderer.atlasKey(page: $1))
    }
    return (atlas, batches.reduce(0) { $0 + resources.instanceBytes(ResourceKey($1)) })
  }

  /// Atlas pages in use.
  package var pageCount: Int { layout.pageCount }
  /// Distinct icon images in the atlas.
  package var atlasEntryCount: Int { layout.placements.count }

  /// Replaces the markers: `sprites` in draw order (lowest first), `icons` holding the pixels
  /// (premultiplied or not) of every key they use, drawn at `scale` pixels per point.
  package func update(sprites: [MarkerSprite], icons: [IconKey: RGBAImage], scale: Double) throws(GLError) {
    try placeIcons(Set(sprites.map(\.icon)), images: icons)
    self.sprites = sprites
    self.scale = scale
    spriteBatches = []
    instanceData = []
    spriteBatches.reserveCapacity(sprites.count)
    instanceData.reserveCapacity(sprites.count * MarkerRenderer.floatsPerInstance)
    let pageSize = Float(layout.pageSize)
    for sprite in sprites {
      let placement = layout.placements[sprite.icon]!
      spriteBatches.append(MarkerBatchKey(page: placement.page, isFlat: sprite.isFlat))
      let xHigh = Float(sprite.world.x)
      let yHigh = Float(sprite.world.y)
      instanceData += [
        xHigh, yHigh, Float(sprite.world.x - Double(xHigh)), Float(sprite.world.y - Double(yHigh)),
        Float(sprite.width), Float(sprite.height), Float(sprite.anchorX), Float(sprite.anchorY),
        Float(placement.x) / pageSize, Float(placement.y) / pageSize,
        Float(placement.x + placement.width) / pageSize, Float(placement.y + placement.height) / pageSize,
        Float(sprite.rotation * .pi / 180), Float(min(max(sprite.opacity, 0), 1)), Float(sprite.animation.rawValue), 0,
        // The part of the icon drawn: all of it.
        0, 0, 1, 1,
        // Placed by the GPU (no pixel position given).
        0, 0, 0, 0,
      ]
    }
    spriteCount = sprites.count
    culledFor = nil
    uploadedAll = false
  }

  /// Puts new icons into the atlas: into the current pages when they fit, else the atlas is laid
  /// out again on the smallest square pages (256 texels and up, doubling) that hold every icon
  /// on one page, or on several pages of the largest size.
  private func placeIcons(_ used: Set<IconKey>, images: [IconKey: RGBAImage]) throws(GLError) {
    let new = used.filter { atlasImages[$0] == nil }
    guard !new.isEmpty else { return }
    for key in new {
      guard let image = images[key] else { continue }
      atlasImages[key] = image.premultipliedAlpha()
      if key.width <= 256 && key.height <= 256 {
        let straight = image.straightAlpha().pixels
        let alpha = stride(from: 3, to: straight.count, by: 4).map { straight[$0] }
        masks[key] = MarkerOcclusion.Masks(alpha: alpha, width: key.width, height: key.height)
      }
    }
    if let biggest = new.max(by: { max($0.width, $0.height) < max($1.width, $1.height) }),
      max(biggest.width, biggest.height) + 2 * MarkerAtlasLayout.padding > maxPageSize
    {
      throw GLError.invalidSize(
        what: "marker icon larger than an atlas page", width: biggest.width, height: biggest.height,
        limit: maxPageSize)
    }
    var trial = layout
    if let added = trial.place(Array(new)), trial.pageCount == max(layout.pageCount, 1) {
      layout = trial
      try uploadIcons(added)
      return
    }
    // Lay everything out again on larger pages.
    let all = Array(atlasImages.keys)
    var size = layout.pageSize
    var fresh = MarkerAtlasLayout(pageSize: size)
    while true {
      fresh = MarkerAtlasLayout(pageSize: size)
      if let placed = fresh.place(all), fresh.pageCount == 1 || size >= maxPageSize {
        _ = placed
        break
      }
      size = min(size * 2, maxPageSize)
    }
    for page in 0..<layout.pageCount { resources.removePinnedTexture(MarkerRenderer.atlasKey(page: page)) }
    layout = fresh
    try uploadIcons(fresh.placements)
  }

  /// Gives back the atlas pages (a renderer made after this one for the same resources starts
  /// from empty pages of its own size).
  package func releaseAtlas() {
    for page in 0..<layout.pageCount { resources.removePinnedTexture(MarkerRenderer.atlasKey(page: page)) }
  }

  private func uploadIcons(_ placements: [IconKey: MarkerAtlasLayout.Placement]) throws(GLError) {
    for (key, placement) in placements.sorted(by: { $0.value.page < $1.value.page }) {
      guard let image = atlasImages[key] else { continue }
      let page = try resources.pinnedTexture(
        MarkerRenderer.atlasKey(page: placement.page), width: layout.pageSize, height: layout.pageSize)
      resources.device.updateTexture(
        page, x: placement.x, y: placement.y, width: placement.width, height: placement.height, pixels: image.pixels)
    }
  }

  /// Whether a sprite is drawn texel for pixel: an unrotated billboard whose icon has exactly
  /// its size in pixels at `scale`.
  package static func isPixelAligned(_ sprite: MarkerSprite, scale: Double) -> Bool {
    !sprite.isFlat && sprite.rotation == 0 && abs(sprite.width * scale - Double(sprite.icon.width)) < 1e-6
      && abs(sprite.height * scale - Double(sprite.icon.height)) < 1e-6
  }

  /// Uploads the sprites at `visible` (every sprite, whole, when nil), each drawn over the given
  /// part of its icon (unit square), grouped into batches.
  private func upload(_ visible: [VisiblePart]?) throws(GLError) {
    var data: [MarkerBatchKey: [Float]] = [:]
    var counts: [MarkerBatchKey: Int] = [:]
    let stride = MarkerRenderer.floatsPerInstance
    if let visible {
      for item in visible {
        let key = spriteBatches[item.index]
        data[key, default: []] += instanceData[item.index * stride..<(item.index * stride + 16)]
        data[key, default: []] += [item.part.0, item.part.1, item.part.2, item.part.3]
        if let pixel = item.pixel {
          data[key, default: []] += [Float(pixel.x), Float(pixel.y), 1, 0]
        } else {
          data[key, default: []] += [0, 0, 0, 0]
        }
        counts[key, default: 0] += 1
      }
    } else {
      for index in sprites.indices {
        let key = spriteBatches[index]
        data[key, default: []] += instanceData[index * stride..<(index + 1) * stride]
        counts[key, default: 0] += 1
      }
    }
    for key in Set(data.keys).union(batches) {
      let floats = data[key] ?? []
      try resources.setInstances(floats.withUnsafeBytes { Array($0) }, count: counts[key] ?? 0, for: ResourceKey(key))
    }
    // Flat markers lie on the ground: drawn before the billboards standing on it.
    batches = data.keys.sorted { ($0.isFlat ? 0 : 1, $0.page) < ($1.isFlat ? 0 : 1, $1.page) }
    drawnCount = visible.map { Set($0.map(\.index)).count } ?? sprites.count
    // Batches whose instances are all placed on whole pixels read texels without filtering.
    exactBatches = []
    if let visible {
      var inexact = Set<MarkerBatchKey>()
      for item in visible where item.pixel == nil { inexact.insert(spriteBatches[item.index]) }
      exactBatches = Set(batches).subtracting(inexact)
    }
  }

  static let matrix = UniformSlot<Mat4>("u_matrix")
  static let targetHigh = UniformSlot<SIMD2<Float>>("u_target_high")
  static let targetLow = UniformSlot<SIMD2<Float>>("u_target_low")
  static let worldSize = UniformSlot<Float>("u_world_size")
  static let pointsToClip = UniformSlot<SIMD2<Float>>("u_points_to_clip")
  static let viewportPixels = UniformSlot<SIMD2<Float>>("u_viewport_pixels")
  static let scale = UniformSlot<Float>("u_scale")
  static let appear = UniformSlot<Float>("u_appear")
  static let worldCopy = UniformSlot<Float>("u_world_copy")
  static let atlasSize = UniformSlot<Float>("u_atlas_size")
  static let image = UniformSlot<Int32>("u_image")

  /// Adds the markers' draws (above everything else, in the overlay pass); `appear` is the
  /// progress (0…1) of appear animations.
  package func addDraws(to frame: inout FrameBuilder, appear: Double) throws(GLError) {
    let transform = frame.transform
    let copies = Self.worldCopies(transform)
    // Dense sets draw only what can be seen (not while appear animations run: popping icons
    // grow past their masks, nor when the world repeats across the view).
    if sprites.count >= occlusionThreshold && appear >= 1 && copies == 0...0 {
      if culledFor != transform {
        try upload(visibleSprites(for: transform))
        culledFor = transform
        uploadedAll = false
      }
    } else if !uploadedAll {
      try upload(nil)
      uploadedAll = true
      culledFor = nil
    }
    guard !batches.isEmpty else { return }
    let target = transform.targetWorld
    let worldSize = transform.worldSize
    let x = target.x / worldSize
    let y = target.y / worldSize
    let xHigh = Float(x)
    let yHigh = Float(y)
    let viewport = transform.viewport
    var uniforms = UniformValues()
    uniforms.set(MarkerRenderer.matrix, transform.clipMatrix())
    uniforms.set(MarkerRenderer.targetHigh, SIMD2(xHigh, yHigh))
    uniforms.set(MarkerRenderer.targetLow, SIMD2(Float(x - Double(xHigh)), Float(y - Double(yHigh))))
    uniforms.set(MarkerRenderer.worldSize, Float(worldSize))
    uniforms.set(MarkerRenderer.pointsToClip, SIMD2(Float(2 / viewport.width), Float(-2 / viewport.height)))
    uniforms.set(MarkerRenderer.viewportPixels, SIMD2(Float(viewport.pixelWidth), Float(viewport.pixelHeight)))
    uniforms.set(MarkerRenderer.scale, Float(viewport.scale))
    uniforms.set(MarkerRenderer.appear, Float(min(max(appear, 0), 1)))
    uniforms.set(MarkerRenderer.atlasSize, Float(layout.pageSize))
    uniforms.set(MarkerRenderer.image, 0)
    for copy in copies {
      uniforms.set(MarkerRenderer.worldCopy, Float(copy))
      for key in batches {
        frame.draw(
          .overlay, Pipeline(MarkerPipeline(isFlat: key.isFlat, isExact: exactBatches.contains(key))),
          .cachedInstances(.unitQuadStrip, ResourceKey(key)), uniforms,
          textures: [MarkerRenderer.atlasKey(page: key.page)])
      }
    }
  }

  /// The largest distance an icon reaches from its anchor that still counts a copy of the
  /// world as in view, points.
  static let iconReach = 256.0

  /// The copies of the world (in world widths from the one nearest the target) that markers
  /// are drawn on: the nearest only, unless the view is wider than the world (low zooms),
  /// when the SDK shows them on every copy in view.
  static func worldCopies(_ transform: CameraTransform) -> ClosedRange<Int> {
    let viewport = transform.viewport
    var reach = 0.0
    for x in [0.0, viewport.width] {
      for y in [0.0, viewport.height] {
        guard let world = transform.worldPoint(for: ScreenPoint(x: x, y: y)) else { continue }
        reach = max(reach, abs(world.x - transform.targetWorld.x))
      }
    }
    // Copy k is in view when its nearest edge, k − ½ worlds away, is within reach.
    let worlds = (reach + iconReach) / transform.worldSize
    let count = min(Int(clamping: (worlds - 0.5).rounded(.up)), 8)
    return count > 0 ? -count...count : 0...0
  }
}
