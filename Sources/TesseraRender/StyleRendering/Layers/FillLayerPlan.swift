import TesseraGL
import TesseraStyle

extension StyleFramePlanner {
  /// `fill`: triangles of every tile, then (with `fill-antialias`) their outlines as 2-pixel
  /// GL lines that soften the edges, in `fill-outline-color` when set.
  mutating func planFill(_ layer: StyleLayer, index: Int, tiles: [RenderTile]) {
    guard let source = layer.source, !tiles.isEmpty else { return }
    let groups = StyleFramePlanner.groups(tiles)
    let (translate, anchoredToViewport) = translation(layer, prefix: "fill")
    let mask = PaintBinding.mask(PaintBinding.fill, layer: layer)
    clipMasks(source: source, groups: groups, index: index)
    for group in groups {
      let stencil = stencilReference(group.key)
      let matrix = tileMatrix(
        group.key.covered, extent: FillBucketBuilder.extent, translate: translate,
        viewportAnchored: anchoredToViewport)
      append(
        index, .style(StylePipeline(program: .fill, mask: mask, clipped: stencil != nil)),
        .bucket(bucketKey(layer, group.key), .main),
        [("u_matrix", matrix)] + paintUniforms(PaintBinding.fill, layer: layer, mask: mask, tile: group.key),
        stencil: stencil, cullMargin: 0, scissor: scissor(group.key))
    }
    guard layer.property("fill-antialias").evaluate(zoom: input.zoom).bool ?? true else { return }
    let outlineColorSet = layer.property("fill-outline-color").expression.constantValue != .null
    let bindings = outlineColorSet ? PaintBinding.fillOutline : PaintBinding.fill
    let outlineMask = PaintBinding.mask(bindings, layer: layer)
    let viewport = input.transform.viewport
    let world = UniformValue.vec2(Float(viewport.pixelWidth), Float(viewport.pixelHeight))
    for group in groups {
      let stencil = stencilReference(group.key)
      let matrix = tileMatrix(
        group.key.covered, extent: FillBucketBuilder.extent, translate: translate,
        viewportAnchored: anchoredToViewport)
      append(
        index, .style(StylePipeline(program: .fillOutline, mask: outlineMask, clipped: stencil != nil)),
        .bucket(bucketKey(layer, group.key), .outline),
        [("u_matrix", matrix), ("u_world", world)]
          + paintUniforms(bindings, layer: layer, mask: outlineMask, tile: group.key),
        stencil: stencil, cullMargin: 0, scissor: scissor(group.key))
    }
  }
}
