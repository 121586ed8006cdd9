import Foundation
import TesseraGL
import TesseraGeo
import TesseraStyle

extension StyleFramePlanner {
  /// `hillshade`: each DEM tile's prepared slopes shaded by the illumination direction (turned
  /// with the map's bearing when anchored to the viewport) and the three colours.
  mutating func planHillshade(_ layer: StyleLayer, index: Int, tiles: [RenderTile]) {
    guard let source = layer.source else { return }
    let zoom = input.zoom
    var azimuth = layer.property("hillshade-illumination-direction").number(zoom: zoom) * .pi / 180
    if layer.property("hillshade-illumination-anchor").evaluate(zoom: zoom).string != "map" {
      azimuth += input.transform.camera.bearing * .pi / 180
    }
    let exaggeration = layer.property("hillshade-exaggeration").number(zoom: zoom)
    let base = 1.875 - exaggeration * 1.75
    let maxValue = Double.pi / 2
    // The shader's azimuth is the direction + π.
    let shaderAzimuth = azimuth + .pi
    let paint: [(name: String, value: UniformValue)] = [
      ("u_image", .int(0)),
      ("u_light", .vec2(Float(exaggeration), Float(azimuth))),
      (
        "u_slope_curve", base == 1 ? .vec2(0, 0) : .vec2(Float(log2(base)), Float(maxValue / (pow(base, maxValue) - 1)))
      ),
      ("u_azimuth", .vec2(Float(cos(shaderAzimuth)), Float(sin(shaderAzimuth)))),
      ("u_shadow", layer.property("hillshade-shadow-color").color(zoom: zoom).uniform),
      ("u_highlight", layer.property("hillshade-highlight-color").color(zoom: zoom).uniform),
      ("u_accent", layer.property("hillshade-accent-color").color(zoom: zoom).uniform),
    ]
    for tile in tiles {
      guard let texture = input.textures[source]?[tile.dataTile] else { continue }
      let rect = tile.textureRect
      let data = tile.dataTile
      let tiles = Double(data.tilesPerSide)
      let north = Mercator.unproject(WorldPoint(x: 0, y: Double(data.y)), worldSize: tiles).latitude
      let south = Mercator.unproject(WorldPoint(x: 0, y: Double(data.y + 1)), worldSize: tiles).latitude
      append(
        index, .style(StylePipeline(program: .hillshade)), .builtin(.unitSquare),
        [
          ("u_matrix", tileMatrix(tile, extent: 1, pixelAligned: true)),
          ("u_texture_rect", .vec4(Float(rect.x), Float(rect.y), Float(rect.width), Float(rect.height))),
          ("u_latrange", .vec2(Float(north), Float(south))),
        ] + paint, textures: [texture])
    }
  }
}
