import Foundation
import Tessera
import TesseraGeo
import TesseraImage

extension ConformanceRunner {
  /// Tile mode as MapLibre Native's runner does it: the 512-pixel tiles of the style's zoom that
  /// the view (512 × 512 around the centre) meets are each rendered with the camera at the
  /// tile's centre and laid side by side; with `debug`, each tile gets a 2-pixel red outline.
  func renderTiles(_ test: ConformanceCase) throws -> Snapshot {
    let z = Int(test.zoom.rounded(.down))
    let world = Double(1 << z) * 512
    let centre = Mercator.project(test.center, worldSize: world)
    let half = test.width * test.pixelRatio / 2 / test.pixelRatio
    let columns = Int(((centre.x - half) / 512).rounded(.down))...Int(((centre.x + half) / 512 - 1e-9).rounded(.down))
    let rows = Int(((centre.y - half) / 512).rounded(.down))...Int(((centre.y + half) / 512 - 1e-9).rounded(.down))
    let side = Int(512 * test.pixelRatio)
    var image = RGBAImage(
      width: columns.count * side, height: rows.count * side,
      pixels: [UInt8](repeating: 0, count: columns.count * side * rows.count * side * 4),
      alpha: .premultiplied)
    var warnings: [String] = []
    for (row, y) in rows.enumerated() {
      for (column, x) in columns.enumerated() {
        var options = try ConformanceRunner.options(for: test)
        let target = Mercator.unproject(
          WorldPoint(x: (Double(x) + 0.5) * 512, y: (Double(y) + 0.5) * 512), worldSize: world)
        options.camera = try Camera(
          target: target, zoom: options.camera.zoom, bearing: options.camera.bearing,
          viewingAngle: options.camera.viewingAngle, limits: options.limits)
        options.width = 512
        options.height = 512
        let tile = try render(test, options: options, tileMode: true)
        var picture = tile.image
        if test.debug { Self.outline(&picture, width: Int(2 * test.pixelRatio)) }
        warnings += tile.warnings
        for line in 0..<side {
          let source = line * side * 4
          let target = ((row * side + line) * image.width + column * side) * 4
          image.pixels.replaceSubrange(target..<target + side * 4, with: picture.pixels[source..<source + side * 4])
        }
      }
    }
    return Snapshot(image: image, warnings: warnings)
  }

  /// Paints a red border `width` pixels wide inside the image's edges (MapLibre's tile borders).
  static func outline(_ image: inout RGBAImage, width: Int) {
    for y in 0..<image.height {
      for x in 0..<image.width
      where x < width || y < width || x >= image.width - width || y >= image.height - width {
        image.setPixel(x: x, y: y, (255, 0, 0, 255))
      }
    }
  }
}
