import TesseraData
import TesseraGL
import TesseraGeo
import TesseraJSON
import TesseraNumbers
import TesseraStyle

/// The pipeline of symbol quads (the `symbol` program, instanced): glyphs (distance fields in
/// the glyph atlas), SDF icons (tinted, in the icon atlas) or plain icons (texel for pixel
/// when `nearest`).
struct SymbolPipeline: PipelineVariant {
  enum Kind: Hashable, Sendable {
    case glyphs, sdfIcons, icons
  }
  let kind: Kind
  var nearest = false

  var descriptor: PipelineDescriptor {
    var defines: [String: String] = [:]
    switch kind {
    case .glyphs:
      defines["SDF"] = "1"
      defines["GLYPHS"] = "1"
    case .sdfIcons: defines["SDF"] = "1"
    case .icons: if nearest { defines["NEAREST"] = "1" }
    }
    return PipelineDescriptor(
      program: "symbol", defines: defines,
      layout: VertexLayout(
        buffers: [VertexBufferLayout(stride: 8), SymbolInstanceVertex.bufferLayout],
        attributes: [VertexAttribute("a_corner", .float2, buffer: 0)] + SymbolInstanceVertex.attributes(buffer: 1)),
      primitive: .triangleStrip, label: description)
  }

  var description: String {
    switch kind {
    case .glyphs: return "symbol glyphs"
    case .sdfIcons: return "symbol sdf icons"
    case .icons: return nearest ? "symbol icons nearest" : "symbol icons"
    }
  }
}

/// `symbol`: text and icons at points, placed for the whole frame on the CPU (see
/// ``SymbolPlacer``) and drawn as instanced quads, per layer: plain icons, SDF icons'
/// halos and fills, then the text's halos and fills (MapLibre's order), the images inside
/// the text drawn from the icon atlas with each of the text's passes.
struct SymbolLayerRenderer: StyleLayerRenderer {
  var layerType: LayerType { .symbol }

  static let textureSize = UniformSlot<SIMD2<Float>>("u_texsize")
  static let isHalo = UniformSlot<Bool>("u_is_halo")
  static let devicePixelRatio = UniformSlot<Float>("u_device_pixel_ratio")

  func pipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [StylePipeline] { [] }

  /// Glyphs when the layer has text; plain icons (texel for pixel unless tilted) when it has
  /// icons. SDF icons are known only once the sprite's images are read, and compile then.
  func otherPipelines(_ layer: StyleLayer, _ context: PipelineContext) -> [Pipeline] {
    let layout = layer.definition["layout"]?.object
    var result: [Pipeline] = []
    if layout?["icon-image"] != nil {
      result.append(Pipeline(SymbolPipeline(kind: .icons, nearest: !context.isTilted)))
    }
    if layout?["text-field"] != nil { result.append(Pipeline(SymbolPipeline(kind: .glyphs))) }
    if let field = layout?["text-field"], SymbolLayerRenderer.showsImages(field) {
      // Images inside text, read texel for pixel or filtered (see textImagesNearest).
      for nearest in [true, false] where !result.contains(Pipeline(SymbolPipeline(kind: .icons, nearest: nearest))) {
        result.append(Pipeline(SymbolPipeline(kind: .icons, nearest: nearest)))
      }
    }
    return result
  }

  /// Whether a `text-field` value has an `image` expression anywhere in it.
  static func showsImages(_ value: JSONValue) -> Bool {
    guard let elements = value.array else { return false }
    return elements.first == .string("image") || elements.contains(where: showsImages)
  }

  func plan(_ layer: StyleLayer, tiles: [RenderTile], planner: inout StyleFramePlanner) {
    guard let placed = planner.input.symbols[layer.id], !placed.isEmpty else { return }
    func draw(_ pipeline: SymbolPipeline, _ data: ArraySlice<Float>, atlas: SymbolAtlasTexture, halo: Bool) {
      guard !data.isEmpty else { return }
      let instances = SymbolInstanceVertex.count(data.count)
      var uniforms = UniformValues()
      uniforms.set(SymbolLayerRenderer.textureSize, SIMD2(Float(atlas.width), Float(atlas.height)))
      uniforms.set(SymbolLayerRenderer.isHalo, halo)
      uniforms.set(SymbolLayerRenderer.devicePixelRatio, Float(planner.pixelRatio))
      let bytes = data.withUnsafeBytes { Array($0) }
      planner.frame.draw(
        .translucent, Pipeline(pipeline),
        .instanced(.unitQuadStrip, InstanceData(bytes: bytes, count: instances)), uniforms, instances: instances,
        textures: [atlas.key])
    }
    for run in placed.runs {
      if let icons = planner.input.iconAtlas {
        let plain = placed.icons[run.icons]
        let sdf = placed.sdfIcons[run.sdfIcons]
        draw(SymbolPipeline(kind: .icons, nearest: placed.iconsNearest), plain, atlas: icons, halo: false)
        if placed.sdfIconHalo { draw(SymbolPipeline(kind: .sdfIcons), sdf, atlas: icons, halo: true) }
        draw(SymbolPipeline(kind: .sdfIcons), sdf, atlas: icons, halo: false)
      }
      // Images inside text: with the text, but read from the icon atlas. MapLibre Native draws
      // them in each of the text's passes, so twice when the text has a halo.
      func drawTextImages() {
        guard let icons = planner.input.iconAtlas else { return }
        draw(
          SymbolPipeline(kind: .icons, nearest: placed.textImagesNearest), placed.textImages[run.textImages],
          atlas: icons, halo: false)
      }
      let text = placed.text[run.text]
      if placed.textHalo, let glyphs = planner.input.glyphAtlas {
        drawTextImages()
        draw(SymbolPipeline(kind: .glyphs), text, atlas: glyphs, halo: true)
      }
      drawTextImages()
      if let glyphs = planner.input.glyphAtlas {
        draw(SymbolPipeline(kind: .glyphs), text, atlas: glyphs, halo: false)
      }
    }
    if !placed.collisionCircles.isEmpty {
      // After the layer's symbols, as MapLibre draws its collision debug.
      let viewport = planner.input.transform.viewport
      var uniforms = UniformValues()
      uniforms.set(CollisionCirclePipeline.viewport, SIMD2(Float(viewport.width), Float(viewport.height)))
      let circles = placed.collisionCircles.count / CollisionCirclePipeline.floatsPerCircle
      let bytes = placed.collisionCircles.withUnsafeBytes { Array($0) }
      planner.frame.draw(
        .translucent, Pipeline(CollisionCirclePipeline()),
        .instanced(.unitQuadStrip, InstanceData(bytes: bytes, count: circles)), uniforms, instances: circles,
        textures: [])
    }
  }
}

/// An atlas texture symbols draw from: its key and size in texels.
struct SymbolAtlasTexture: Sendable {
  let key: ResourceKey
  let width: Int
  let height: Int
}

/// The texture of a map's glyph atlas.
struct GlyphAtlasKey: Hashable, Sendable, CustomStringConvertible {
  let store: ObjectIdentifier
  var description: String { "glyph atlas" }
}

/// The texture of a style's icon atlas, by style revision.
struct IconAtlasKey: Hashable, Sendable, CustomStringConvertible {
  let revision: Int
  var description: String { "icon atlas of style revision \(revision)" }
}
