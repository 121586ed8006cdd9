import Foundation
import TesseraGL
import TesseraStyle

extension StyleFramePlanner {
  /// `raster`: each tile's image on its square (a part of an ancestor's image when the tile is
  /// overzoomed or fell back), with MapLibre's hue, saturation, contrast and brightness paint.
  mutating func planRaster(_ layer: StyleLayer, index: Int, tiles: [RenderTile]) {
    guard let source = layer.source else { return }
    let zoom = input.zoom
    let opacity = layer.property("raster-opacity").number(zoom: zoom)
    guard opacity > 0 else { return }
    let hue = layer.property("raster-hue-rotate").number(zoom: zoom) * .pi / 180
    let saturation = layer.property("raster-saturation").number(zoom: zoom)
    let contrast = layer.property("raster-contrast").number(zoom: zoom)
    let brightnessMin = layer.property("raster-brightness-min").number(zoom: zoom)
    let brightnessMax = layer.property("raster-brightness-max").number(zoom: zoom)
    let (s, c) = (sin(hue), cos(hue))
    let spin = (
      (2 * c + 1) / 3, (-(3.0).squareRoot() * s - c + 1) / 3, ((3.0).squareRoot() * s - c + 1) / 3
    )
    let paint: [(name: String, value: UniformValue)] = [
      ("u_image", .int(0)),
      ("u_opacity", .float(Float(opacity))),
      ("u_brightness_low", .float(Float(brightnessMin))),
      ("u_brightness_high", .float(Float(brightnessMax))),
      ("u_saturation_factor", .float(Float(saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation))),
      ("u_contrast_factor", .float(Float(contrast > 0 ? 1 / (1 - contrast) : 1 + contrast))),
      ("u_spin_weights", .vec3(Float(spin.0), Float(spin.1), Float(spin.2))),
    ]
    let pipeline = StyleFramePlanner.rasterPipeline(layer, zoom: zoom)
    for tile in tiles {
      guard let texture = input.textures[source]?[tile.dataTile] else { continue }
      let rect = tile.textureRect
      append(
        index, .style(pipeline), .builtin(.unitSquare),
        [
          ("u_matrix", tileMatrix(tile, extent: 1, pixelAligned: true)),
          ("u_texture_rect", .vec4(Float(rect.x), Float(rect.y), Float(rect.width), Float(rect.height))),
        ] + paint, textures: [texture])
    }
  }

  /// The raster program variant: nearest-texel sampling, and the plain one when every colour
  /// paint property is at its default.
  static func rasterPipeline(_ layer: StyleLayer, zoom: Double) -> StylePipeline {
    let value = { (name: String) in layer.property(name).number(zoom: zoom) }
    let plain =
      value("raster-hue-rotate") == 0 && value("raster-saturation") == 0 && value("raster-contrast") == 0
      && value("raster-brightness-min") == 0 && value("raster-brightness-max") == 1
    let nearest = layer.property("raster-resampling").evaluate(zoom: zoom).string == "nearest"
    return StylePipeline(program: .raster, nearest: nearest, plain: plain)
  }
}
