import Foundation
import TesseraGL
import TesseraGeo
import TesseraImage

/// A group of marker instances drawn in one call: one atlas page, flat or billboard.
public struct MarkerBatchKey: Sendable, Hashable, CustomStringConvertible {
  public let page: Int
  public let isFlat: Bool

  public var description: String { "markers page \(page) \(isFlat ? "flat" : "billboard")" }
}

/// The pipeline of marker sprites (the `marker` program, instanced): lying on the ground or
/// facing the screen, `exact` when every instance is placed on whole pixels and read texel for
/// pixel.
public struct MarkerPipeline: PipelineVariant {
  public let isFlat: Bool
  public let isExact: Bool

  public var descriptor: PipelineDescriptor {
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

  public var description: String { isFlat ? "markers flat" : "markers" }
}

/// Draws markers as instanced sprites: icons packed into shared atlas pages, instance data on
/// the GPU, at most two draws (flat, billboard) per page.
///
/// Positions are stored as two floats per axis (world units, high and low parts) and subtracted
/// from the camera target on the GPU, so markers stay exact at zoom 22. Small sets keep all
/// their instances on the GPU until the markers change; sets of ``occlusionThreshold`` markers
/// or more are culled on the CPU per camera (see ``MarkerOcclusion``) and only the visible
/// part of each visible marker is drawn.
public final class MarkerRenderer {
  /// Floats per instance (96 bytes).
  static let floatsPerInstance = 24

  public let resources: GPUResourceCache
  private var layout: MarkerAtlasLayout
  private var batches: [MarkerBatchKey] = []
  /// The markers, their batch and instance data (all of them; a frame may draw a subset).
  private var sprites: [MarkerSprite] = []
  private var spriteBatches: [MarkerBatchKey] = []
  private var instanceData: [Float] = []
  /// The pixel density the instance data was made for.
  private var scale = 1.0
  /// Occlusion masks of the icons (small icons only).
  private var masks: [IconKey: MarkerOcclusion.Masks] = [:]
  /// The camera the culled instances were made for (nil: every sprite is uploaded in full).
  private var culledFor: CameraTransform?
  private var uploadedAll = false
  /// Batches drawn texel for pixel this frame.
  private var exactBatches = Set<MarkerBatchKey>()
  /// Markers from this many on are culled against each other.
  public var occlusionThreshold = 200
  /// The sprites given to the last ``update(sprites:icons:scale:)``.
  public private(set) var spriteCount = 0
  /// The sprites the last frame drew.
  public private(set) var drawnCount = 0

  /// Every icon image in the atlas (premultiplied), kept to lay the atlas out again.
  private var atlasImages: [IconKey: RGBAImage] = [:]
  /// The largest page side (texels): the GL limit, at most 4096.
  private let maxPageSize: Int

  public init(resources: GPUResourceCache) {
    self.resources = resources
    maxPageSize = min(resources.device.info.limits.maxTextureSize, 4096)
    layout = MarkerAtlasLayout(pageSize: min(256, maxPageSize))
  }

  /// The texture of an atlas page.
  static func atlasKey(page: Int) -> ResourceKey {
    ResourceKey(AtlasPageKey(atlas: "markers", page: page))
  }

  /// What the markers hold on the GPU: atlas page bytes and instance bytes.
  public var gpuBytes: (atlas: Int, instances: Int) {
    let atlas = (0..<layout.pageCount).reduce(0) {
      $0 + resources.pinnedTextureBytes(MarkerRenderer.atlasKey(page: $1))
    }
    return (atlas, batches.reduce(0) { $0 + resources.instanceBytes(ResourceKey($1)) })
  }

  /// Atlas pages in use.
  public var pageCount: Int { layout.pageCount }
  /// Distinct icon images in the atlas.
  public var atlasEntryCount: Int { layout.placements.count }

  /// Replaces the markers: `sprites` in draw order (lowest first), `icons` holding the pixels
  /// (premultiplied or not) of every key they use, drawn at `scale` pixels per point.
  public func update(sprites: [MarkerSprite], icons: [IconKey: RGBAImage], scale: Double) throws(GLError) {
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
  public static func isPixelAligned(_ sprite: MarkerSprite, scale: Double) -> Bool {
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

  /// One drawn part of a visible sprite: the part of its icon (unit square) and, for sprites
  /// placed texel for pixel, the screen pixel of its icon's top-left corner.
  struct VisiblePart {
    let index: Int
    let part: (Float, Float, Float, Float)
    let pixel: (x: Int, y: Int)?
  }

  /// The sprites that show for `transform`, in draw order, each with the parts of its icon to
  /// draw (one entry per part): tested front to back against what is in front of them.
  func visibleSprites(for transform: CameraTransform) -> [VisiblePart] {
    let viewport = transform.viewport
    var occlusion = MarkerOcclusion(width: viewport.pixelWidth, height: viewport.pixelHeight)
    // Front to back: billboards above flat markers, later pages above earlier ones, later
    // sprites above earlier ones.
    let order = sprites.indices.sorted {
      let a = spriteBatches[$0]
      let b = spriteBatches[$1]
      return (a.isFlat ? 0 : 1, a.page, $0) > (b.isFlat ? 0 : 1, b.page, $1)
    }
    var visible: [VisiblePart] = []
    let worldSize = transform.worldSize
    for index in order {
      let sprite = sprites[index]
      let world = WorldPoint(x: sprite.world.x * worldSize, y: sprite.world.y * worldSize)
      let (dx, dy) = transform.offsetFromTarget(world)
      if MarkerRenderer.isPixelAligned(sprite, scale: scale), let masks = masks[sprite.icon],
        let anchor = transform.screenPoint(dx: dx, dy: dy)
      {
        // The icon's top-left pixel (the GPU draws it exactly there).
        let x = Int(((anchor.x - sprite.anchorX * sprite.width) * scale).rounded())
        let y = Int(((anchor.y - sprite.anchorY * sprite.height) * scale).rounded())
        let rows = occlusion.exposedRows(masks.drawn, x: x, y: y)
        guard !rows.isEmpty else { continue }
        let width = Float(masks.width)
        let height = Float(masks.height)
        for band in MarkerOcclusion.bands(rows) {
          let part = (
            max(Float(band.minX - x), 0) / width, max(Float(band.minY - y), 0) / height,
            min(Float(band.maxX - x + 1), width) / width, min(Float(band.maxY - y + 1), height) / height
          )
          guard part.0 < part.2, part.1 < part.3 else { continue }
          visible.append(VisiblePart(index: index, part: part, pixel: (x, y)))
        }
        if sprite.opacity >= 1 { occlusion.cover(masks.opaque, x: x, y: y) }
        continue
      }
      // Anything else: the part of its icon under uncovered pixels of its quad (none: culled).
      guard let quad = MarkerRenderer.pixelQuad(sprite, dx: dx, dy: dy, transform: transform, scale: scale) else {
        visible.append(VisiblePart(index: index, part: (0, 0, 1, 1), pixel: nil))
        continue
      }
      let xs = quad.map(\.x)
      let ys = quad.map(\.y)
      guard xs.max()! >= -1, ys.max()! >= -1, xs.min()! <= Double(viewport.pixelWidth + 1),
        ys.min()! <= Double(viewport.pixelHeight + 1)
      else { continue }
      switch MarkerRenderer.exposedPart(
        sprite, quad: quad, dx: dx, dy: dy, occlusion: occlusion, transform: transform, scale: scale)
      {
      case .hidden: continue
      case .part(let part): visible.append(VisiblePart(index: index, part: part, pixel: nil))
      }
    }
    // Stable: a marker's bands stay together, in draw order.
    return visible.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }.map(\.element)
  }

  enum Exposure {
    case hidden
    case part((Float, Float, Float, Float))
  }

  /// For a sprite not drawn texel for pixel (rotated, flat or scaled): the part of its icon
  /// (unit square) under the uncovered pixels of its screen quad, grown by a pixel; hidden
  /// when every pixel is covered. On each pixel row the first and last uncovered pixel
  /// of the quad's span are mapped back into the icon (the maps are affine or projective, so
  /// what lies between them maps between them).
  static func exposedPart(
    _ sprite: MarkerSprite, quad: [ScreenPoint], dx: Double, dy: Double, occlusion: MarkerOcclusion,
    transform: CameraTransform, scale: Double
  ) -> Exposure {
    let angle = sprite.rotation * .pi / 180
    let (c, s) = (cos(angle), sin(angle))
    let anchor = sprite.isFlat ? nil : transform.screenPoint(dx: dx, dy: dy)
    /// The icon point (unit square) under a screen point (pixels).
    func iconPoint(_ x: Double, _ y: Double) -> (Double, Double)? {
      let point = ScreenPoint(x: x / scale, y: y / scale)
      var offset: (Double, Double)
      if let anchor {
        offset = (point.x - anchor.x, point.y - anchor.y)
      } else {
        guard let ground = transform.groundOffset(for: point) else { return nil }
        offset = (ground.dx - dx, ground.dy - dy)
      }
      offset = (offset.0 * c + offset.1 * s, -offset.0 * s + offset.1 * c)
      return (offset.0 / sprite.width + sprite.anchorX, offset.1 / sprite.height + sprite.anchorY)
    }
    let minY = Int(quad.map(\.y).min()!.rounded(.down)) - 1
    let maxY = Int(quad.map(\.y).max()!.rounded(.up)) + 1
    var bounds: (Double, Double, Double, Double)?
    for row in max(minY, 0)...max(min(maxY, occlusion.height - 1), 0) {
      guard let extent = MarkerRenderer.rowExtent(quad, row: row),
        let span = occlusion.uncoveredSpan(
          minX: Int(extent.low.rounded(.down)) - 1, maxX: Int(extent.high.rounded(.up)) + 1, row: row)
      else { continue }
      // The corners of the end pixels grown by a pixel, so rounding and filtering never cut
      // a visible pixel.
      for x in [span.0, span.1] {
        for (px, py) in [(x - 1, row - 1), (x + 2, row - 1), (x - 1, row + 2), (x + 2, row + 2)] {
          // Off the ground: draw the whole sprite.
          guard let (u, v) = iconPoint(Double(px), Double(py)) else { return .part((0, 0, 1, 1)) }
          bounds = bounds.map { (min($0.0, u), min($0.1, v), max($0.2, u), max($0.3, v)) } ?? (u, v, u, v)
        }
      }
    }
    guard let bounds else { return .hidden }
    let part = (
      Float(min(max(bounds.0, 0), 1)), Float(min(max(bounds.1, 0), 1)), Float(min(max(bounds.2, 0), 1)),
      Float(min(max(bounds.3, 0), 1))
    )
    guard part.0 < part.2, part.1 < part.3 else { return .hidden }
    return .part(part)
  }

  /// The x extent (pixels) of a convex quad over the pixel row band [row, row + 1].
  static func rowExtent(_ quad: [ScreenPoint], row: Int) -> (low: Double, high: Double)? {
    var low = Double.infinity
    var high = -Double.infinity
    let top = Double(row)
    let bottom = Double(row + 1)
    for index in 0..<4 {
      let a = quad[index]
      let b = quad[(index + 1) % 4]
      let (y0, y1) = (min(a.y, b.y), max(a.y, b.y))
      guard y1 >= top, y0 <= bottom else { continue }
      for y in [max(y0, top), min(y1, bottom)] {
        let t = a.y == b.y ? 0 : (y - a.y) / (b.y - a.y)
        let x = a.x + (b.x - a.x) * min(max(t, 0), 1)
        low = min(low, x)
        high = max(high, x)
      }
    }
    return low <= high ? (low, high) : nil
  }

  /// Whether every pixel a convex quad (screen pixels) touches, grown by a pixel, is covered:
  /// its span on each pixel row is tested.
  static func isCovered(_ quad: [ScreenPoint], by occlusion: MarkerOcclusion) -> Bool {
    let minY = Int(quad.map(\.y).min()!.rounded(.down)) - 1
    let maxY = Int(quad.map(\.y).max()!.rounded(.up)) + 1
    for row in minY...maxY {
      // The quad's extent over the row's band [row, row + 1].
      var low = Double.infinity
      var high = -Double.infinity
      for index in 0..<4 {
        let a = quad[index]
        let b = quad[(index + 1) % 4]
        let top = Double(row)
        let bottom = Double(row + 1)
        // The edge's part within the band.
        let (y0, y1) = (min(a.y, b.y), max(a.y, b.y))
        guard y1 >= top, y0 <= bottom else { continue }
        for y in [max(y0, top), min(y1, bottom)] {
          let t = a.y == b.y ? 0 : (y - a.y) / (b.y - a.y)
          let x = a.x + (b.x - a.x) * min(max(t, 0), 1)
          low = min(low, x)
          high = max(high, x)
        }
      }
      // Rows the quad only reaches through a vertex inside the band.
      for point in quad where point.y >= Double(row) && point.y <= Double(row + 1) {
        low = min(low, point.x)
        high = max(high, point.x)
      }
      guard low <= high else { continue }
      if !occlusion.isCovered(
        minX: Int(low.rounded(.down)) - 1, minY: row, maxX: Int(high.rounded(.up)) + 1, maxY: row)
      {
        return false
      }
    }
    return true
  }

  /// A sprite's corners in screen pixels; nil when one is behind the camera.
  static func pixelQuad(
    _ sprite: MarkerSprite, dx: Double, dy: Double, transform: CameraTransform, scale: Double
  ) -> [ScreenPoint]? {
    let angle = sprite.rotation * .pi / 180
    let (c, s) = (cos(angle), sin(angle))
    let anchor = sprite.isFlat ? nil : transform.screenPoint(dx: dx, dy: dy)
    if !sprite.isFlat && anchor == nil { return nil }
    var points: [ScreenPoint] = []
    for (u, v) in [(0.0, 0.0), (1, 0), (1, 1), (0, 1)] {
      let lx = (u - sprite.anchorX) * sprite.width
      let ly = (v - sprite.anchorY) * sprite.height
      let (rx, ry) = (lx * c - ly * s, lx * s + ly * c)
      if let anchor {
        points.append(ScreenPoint(x: (anchor.x + rx) * scale, y: (anchor.y + ry) * scale))
      } else {
        guard let point = transform.screenPoint(dx: dx + rx, dy: dy + ry) else { return nil }
        points.append(ScreenPoint(x: point.x * scale, y: point.y * scale))
      }
    }
    return points
  }

  /// A sprite's screen bounds in pixels (grown by a pixel); nil when a corner is behind the camera.
  static func pixelBounds(
    _ sprite: MarkerSprite, dx: Double, dy: Double, transform: CameraTransform, scale: Double
  ) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
    let angle = sprite.rotation * .pi / 180
    let (c, s) = (cos(angle), sin(angle))
    let anchor = sprite.isFlat ? nil : transform.screenPoint(dx: dx, dy: dy)
    if !sprite.isFlat && anchor == nil { return nil }
    var xs: [Double] = []
    var ys: [Double] = []
    for (u, v) in [(0.0, 0.0), (1, 0), (1, 1), (0, 1)] {
      let lx = (u - sprite.anchorX) * sprite.width
      let ly = (v - sprite.anchorY) * sprite.height
      let (rx, ry) = (lx * c - ly * s, lx * s + ly * c)
      if let anchor {
        xs.append(anchor.x + rx)
        ys.append(anchor.y + ry)
      } else {
        guard let point = transform.screenPoint(dx: dx + rx, dy: dy + ry) else { return nil }
        xs.append(point.x)
        ys.append(point.y)
      }
    }
    return (
      Int((xs.min()! * scale).rounded(.down)) - 1, Int((ys.min()! * scale).rounded(.down)) - 1,
      Int((xs.max()! * scale).rounded(.up)) + 1, Int((ys.max()! * scale).rounded(.up)) + 1
    )
  }

  static let matrix = UniformSlot<Mat4>("u_matrix")
  static let targetHigh = UniformSlot<SIMD2<Float>>("u_target_high")
  static let targetLow = UniformSlot<SIMD2<Float>>("u_target_low")
  static let worldSize = UniformSlot<Float>("u_world_size")
  static let pointsToClip = UniformSlot<SIMD2<Float>>("u_points_to_clip")
  static let viewportPixels = UniformSlot<SIMD2<Float>>("u_viewport_pixels")
  static let scale = UniformSlot<Float>("u_scale")
  static let appear = UniformSlot<Float>("u_appear")
  static let atlasSize = UniformSlot<Float>("u_atlas_size")
  static let image = UniformSlot<Int32>("u_image")

  /// Adds the markers' draws (above everything else, in the overlay pass); `appear` is the
  /// progress (0…1) of appear animations.
  public func addDraws(to frame: inout FrameBuilder, appear: Double) throws(GLError) {
    let transform = frame.transform
    // Dense sets draw only what can be seen (not while appear animations run: popping icons
    // grow past their masks).
    if sprites.count >= occlusionThreshold && appear >= 1 {
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
    for key in batches {
      frame.draw(
        .overlay, Pipeline(MarkerPipeline(isFlat: key.isFlat, isExact: exactBatches.contains(key))),
        .cachedInstances(.unitQuadStrip, ResourceKey(key)), uniforms,
        textures: [MarkerRenderer.atlasKey(page: key.page)])
    }
  }
}
