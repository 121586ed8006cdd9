import TesseraGL
import TesseraStyle

extension StyleFramePlanner {
  /// `circle`: a quad per point, facing the screen (`circle-pitch-alignment` viewport) or lying
  /// on the map, sized in points or with the map's perspective (`circle-pitch-scale`). Points
  /// belong to one tile only, so circles are clipped only where overzoomed tiles share an
  /// ancestor's points.
  mutating func planCircle(_ layer: StyleLayer, index: Int, tiles: [RenderTile]) {
    guard !tiles.isEmpty else { return }
    let zoom = input.zoom
    let transform = input.transform
    let (translate, anchoredToViewport) = translation(layer, prefix: "circle")
    let mask = PaintBinding.mask(PaintBinding.circle, layer: layer)
    let pitchWithMap = layer.property("circle-pitch-alignment").evaluate(zoom: zoom).string == "map"
    let scaleWithMap = layer.property("circle-pitch-scale").evaluate(zoom: zoom).string != "viewport"
    let groups = StyleFramePlanner.groups(tiles)
    let overzoomed = groups.contains { $0.key.zoom > $0.key.dataTile.z }
    if overzoomed, let source = layer.source { clipMasks(source: source, groups: groups, index: index) }
    for group in groups {
      let tile = group.key
      let stencil = overzoomed ? stencilReference(tile) : nil
      let tileWorldSize = transform.worldSize / Double(tile.dataTile.tilesPerSide)
      let extrudeScale: UniformValue =
        pitchWithMap
        ? .vec2(
          Float(FillBucketBuilder.extent / tileWorldSize), Float(FillBucketBuilder.extent / tileWorldSize))
        : .vec2(Float(2 / transform.viewport.width), Float(-2 / transform.viewport.height))
      var uniforms: [(name: String, value: UniformValue)] = [
        (
          "u_matrix",
          tileMatrix(
            tile.covered, extent: FillBucketBuilder.extent, translate: translate,
            viewportAnchored: anchoredToViewport)
        ),
        ("u_scale_with_map", .int(scaleWithMap ? 1 : 0)),
        ("u_pitch_with_map", .int(pitchWithMap ? 1 : 0)),
        ("u_extrude_scale", extrudeScale),
        ("u_camera_to_center_distance", .float(Float(transform.cameraDistance))),
        ("u_device_pixel_ratio", .float(Float(input.pixelRatio))),
      ]
      uniforms += paintUniforms(PaintBinding.circle, layer: layer, mask: mask, tile: tile)
      append(
        index, .style(StylePipeline(program: .circle, mask: mask, clipped: stencil != nil)),
        .bucket(bucketKey(layer, tile), .main), uniforms, stencil: stencil,
        scissor: scissor(tile))
    }
  }
}
