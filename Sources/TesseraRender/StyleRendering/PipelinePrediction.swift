import TesseraGeo
import TesseraStyle

extension StyleFramePlanner {
  /// The pipelines a frame of `layers` (the style's, in order) at style zoom `zoom` is expected
  /// to draw with, each once, in drawing order: the planners' own choices, with tiles clipped
  /// by stencil masks when `clipped`, else by scissor rectangles (unrotated, untilted views). Used to make the pipelines (and on llvmpipe compile their shader
  /// variants) before the frame's tiles are ready; a pipeline missed here is simply made when
  /// the frame first draws with it.
  static func expectedPipelines(layers: [StyleLayer], zoom: Double, clipped: Bool) -> [StylePipeline] {
    var pipelines: [StylePipeline] = []
    var seen = Set<StylePipeline>()
    func add(_ pipeline: StylePipeline) {
      if seen.insert(pipeline).inserted { pipelines.append(pipeline) }
    }
    func addClip() {
      if clipped { add(StylePipeline(program: .clip)) }
    }
    for (position, layer) in layers.filter({ $0.isVisible(atZoom: zoom) }).enumerated() {
      switch layer.type {
      case .background:
        if position > 0 || opaqueBackground(layer, zoom: zoom) == nil { add(StylePipeline(program: .background)) }
      case .fill:
        addClip()
        add(StylePipeline(program: .fill, mask: PaintBinding.mask(PaintBinding.fill, layer: layer), clipped: clipped))
        if layer.property("fill-antialias").evaluate(zoom: zoom).bool ?? true {
          let outlineColorSet = layer.property("fill-outline-color").expression.constantValue != .null
          let bindings = outlineColorSet ? PaintBinding.fillOutline : PaintBinding.fill
          add(StylePipeline(program: .fillOutline, mask: PaintBinding.mask(bindings, layer: layer), clipped: clipped))
        }
      case .line:
        addClip()
        add(
          StylePipeline(
            program: .line, mask: PaintBinding.mask(PaintBinding.line, layer: layer),
            dashed: LineDashes(layer: layer, zoom: zoom) != nil, clipped: clipped))
      case .circle:
        addClip()
        add(
          StylePipeline(program: .circle, mask: PaintBinding.mask(PaintBinding.circle, layer: layer), clipped: clipped))
      case .raster:
        add(rasterPipeline(layer, zoom: zoom))
      case .hillshade:
        add(StylePipeline(program: .hillshade))
      case .fillExtrusion:
        extrusionPipelines(layer, zoom: zoom).forEach(add)
      case .symbol, .heatmap:
        break
      }
    }
    return pipelines
  }
}

extension StyleRenderer {
  /// The pipelines the first frame at `transform` is expected to draw with (see
  /// ``StyleFramePlanner/expectedPipelines(layers:zoom:)``).
  public func expectedPipelines(transform: CameraTransform) -> [PipelineKind] {
    let camera = transform.camera
    let clipped = camera.bearing != 0 || camera.viewingAngle != 0
    return StyleFramePlanner.expectedPipelines(layers: style.layers, zoom: camera.zoom - 1, clipped: clipped).map {
      .style($0)
    }
  }
}
