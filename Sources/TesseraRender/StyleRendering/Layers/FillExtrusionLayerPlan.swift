import TesseraGL
import TesseraStyle

extension StyleFramePlanner {
  /// `fill-extrusion`: buildings drawn with the depth buffer so they hide each other (all
  /// extrusion layers share it); 2D layers after them draw on top, as MapLibre composites them.
  /// Opaque layers draw once; translucent ones draw depth first, then colour only the nearest
  /// surface, each pixel once, so overlapping buildings and the copies neighbouring tiles hold
  /// do not blend twice.
  mutating func planFillExtrusion(_ layer: StyleLayer, index: Int, tiles: [RenderTile]) {
    guard !tiles.isEmpty else { return }
    let zoom = input.zoom
    let transform = input.transform
    let opacity = layer.property("fill-extrusion-opacity").number(zoom: zoom)
    guard opacity > 0 else { return }
    let groups = StyleFramePlanner.groups(tiles)
    let (translate, anchoredToViewport) = translation(layer, prefix: "fill-extrusion")
    let mask = PaintBinding.mask(PaintBinding.fillExtrusion, layer: layer)
    let light = input.light.direction(bearing: transform.camera.bearing)
    let lightColor = input.light.color
    let shared: [(name: String, value: UniformValue)] = [
      ("u_lightpos", .vec3(Float(light.x), Float(light.y), Float(light.z))),
      ("u_lightcolor", .vec3(Float(lightColor.red), Float(lightColor.green), Float(lightColor.blue))),
      ("u_lightintensity", .float(Float(input.light.intensity))),
      (
        "u_vertical_gradient",
        .float(layer.property("fill-extrusion-vertical-gradient").evaluate(zoom: zoom).bool ?? true ? 1 : 0)
      ),
      ("u_opacity", .float(Float(min(opacity, 1)))),
    ]
    // Heights are metres, scaled like MapLibre at the camera target's latitude.
    let pointsPerMeter = transform.pointsPerMeter(latitude: transform.camera.target.latitude)
    func draws() -> [(BucketGroup, [(name: String, value: UniformValue)])] {
      groups.map { group in
        let tileWorldSize = transform.worldSize / Double(group.key.dataTile.tilesPerSide)
        var origin = group.key.covered.origin(worldSize: transform.worldSize)
        var (tx, ty) = translate
        if anchoredToViewport {
          (tx, ty) = (
            transform.cosBearing * tx - transform.sinBearing * ty, transform.sinBearing * tx + transform.cosBearing * ty
          )
        }
        origin.x += tx
        origin.y += ty
        let matrix = transform.clipMatrix(
          origin: origin, unitsToPoints: tileWorldSize / FillBucketBuilder.extent, heightToPoints: pointsPerMeter)
        return (
          group,
          [("u_matrix", .mat4(matrix.floats))] + shared
            + paintUniforms(PaintBinding.fillExtrusion, layer: layer, mask: mask, tile: group.key)
        )
      }
    }
    let passes = StyleFramePlanner.extrusionPipelines(layer, zoom: zoom)
    if passes.count == 1 {
      let pipeline = passes[0]
      for (group, uniforms) in draws() {
        append(index, .style(pipeline), .bucket(bucketKey(layer, group.key), .main), uniforms, cullMargin: 0)
      }
    } else {
      let depthPass = passes[0]
      for (group, uniforms) in draws() {
        append(index, .style(depthPass), .bucket(bucketKey(layer, group.key), .main), uniforms, cullMargin: 0)
      }
      append(index, .clearStencil, .none, [])
      invalidateClipMasks()
      let colorPass = passes[1]
      for (group, uniforms) in draws() {
        append(
          index, .style(colorPass), .bucket(bucketKey(layer, group.key), .main), uniforms, stencil: 1, cullMargin: 0)
      }
    }
  }

  /// The passes of an extrusion layer: one for opaque layers; depth only, then colour once per
  /// pixel, for translucent ones.
  static func extrusionPipelines(_ layer: StyleLayer, zoom: Double) -> [StylePipeline] {
    let mask = PaintBinding.mask(PaintBinding.fillExtrusion, layer: layer)
    guard layer.property("fill-extrusion-opacity").number(zoom: zoom) < 1 else {
      return [StylePipeline(program: .fillExtrusion, mask: mask, depth: .written)]
    }
    return [
      StylePipeline(program: .fillExtrusion, mask: mask, depth: .written, writesColor: false),
      StylePipeline(program: .fillExtrusion, mask: mask, depth: .written, oncePerPixel: true),
    ]
  }
}
