import TesseraData
import TesseraImage
import TesseraNumbers

/// A style's sprite images packed into one texture for `*-pattern` paint: each image with a
/// one-pixel border copied from its opposite edge, so that linear sampling at a repeat's edge
/// blends with the next repeat rather than with a neighbour (as MapLibre packs patterns).
package struct PatternAtlas: Sendable {
  /// Where one image lies in the atlas.
  package struct Position: Sendable, Equatable {
    /// Its top-left and bottom-right corners, atlas pixels (the border excluded).
    package let topLeft: SIMD2<Float>
    package let bottomRight: SIMD2<Float>
    /// Image pixels per point.
    package let pixelRatio: Float

    /// The corners as one vector (tl.x, tl.y, br.x, br.y), as shaders take them.
    package var corners: SIMD4<Float> { SIMD4(topLeft.x, topLeft.y, bottomRight.x, bottomRight.y) }
  }

  /// The atlas size, pixels.
  package let width: Int
  package let height: Int
  /// Each image's place, by the name the style knows it by.
  package let positions: [String: Position]
  /// The atlas, premultiplied RGBA, rows top first.
  let pixels: [UInt8]
  /// Images left out (the atlas is full).
  package let problems: [String]

  /// The widest and tallest atlas, pixels.
  package static let maximumSide = 4096

  /// An atlas without images.
  package static let empty = PatternAtlas(images: [:])

  package var isEmpty: Bool { positions.isEmpty }

  /// Packs `images` (by name) in rows, tallest first, names breaking ties, so the same images
  /// always give the same atlas. Each image has a border of one pixel: its opposite edges
  /// (patterns repeat seamlessly) or, unless `wrapsBorders`, clear (icons).
  package init(images: [String: SpriteImage], wrapsBorders: Bool = true) {
    let order = images.map { (name: $0.key, height: $0.value.image.height) }
      .sorted { a, b in a.height != b.height ? a.height > b.height : a.name < b.name }.map(\.name)
    let area = images.values.reduce(0) { $0 + ($1.image.width + 2) * ($1.image.height + 2) }
    let widest = images.values.map { $0.image.width + 2 }.max() ?? 0
    var side = 64
    while side < PatternAtlas.maximumSide && (side < widest || side * side < area) { side *= 2 }
    var placed: [(name: String, x: Int, y: Int)] = []
    var problems: [String] = []
    var x = 0
    var y = 0
    var rowHeight = 0
    for name in order {
      let image = images[name]!.image
      let (w, h) = (image.width + 2, image.height + 2)
      if x + w > side {
        y += rowHeight
        x = 0
        rowHeight = 0
      }
      guard w <= side, y + h <= PatternAtlas.maximumSide else {
        problems.append("image '\(name)' does not fit the \(PatternAtlas.maximumSide)-pixel pattern atlas; left out")
        continue
      }
      placed.append((name, x, y))
      x += w
      rowHeight = max(rowHeight, h)
    }
    let height = placed.isEmpty ? 0 : max(placed.map { $0.y + images[$0.name]!.image.height + 2 }.max()!, 1)
    var pixels = [UInt8](repeating: 0, count: side * height * 4)
    var positions: [String: Position] = [:]
    for (name, x, y) in placed {
      let sprite = images[name]!
      PatternAtlas.copyWithWrappedBorder(
        sprite.image.premultipliedAlpha(), into: &pixels, atlasWidth: side, x: x, y: y, wraps: wrapsBorders)
      let w = Float(sprite.image.width)
      let h = Float(sprite.image.height)
      positions[name] = Position(
        topLeft: SIMD2(Float(x + 1), Float(y + 1)), bottomRight: SIMD2(Float(x + 1) + w, Float(y + 1) + h),
        pixelRatio: Float(sprite.pixelRatio))
    }
    self.width = placed.isEmpty ? 0 : side
    self.height = height
    self.positions = positions
    self.pixels = pixels
    self.problems = problems
  }

  /// Copies `image` to (x + 1, y + 1) and its edges into the border around it: the top border
  /// is the bottom row, the left border the right column, and so on (corners stay clear). The
  /// image and its border must lie inside the atlas, `atlasWidth` pixels wide.
  static func copyWithWrappedBorder(
    _ image: RGBAImage, into atlas: inout [UInt8], atlasWidth: Int, x: Int, y: Int, wraps: Bool = true
  ) {
    let (w, h) = (image.width, image.height)
    guard w > 0, h > 0 else { return }
    precondition(
      x >= 0 && y >= 0 && x + w + 2 <= atlasWidth && (y + h + 2) * atlasWidth * 4 <= atlas.count
        && image.pixels.count >= w * h * 4,
      "a pattern image must lie inside its atlas")
    let rowBytes = w * 4
    image.pixels.withUnsafeBufferPointer { source in
      atlas.withUnsafeMutableBufferPointer { target in
        let from = source.baseAddress!
        let to = target.baseAddress!
        /// The byte offset of atlas pixel (column, row).
        func offset(_ column: Int, _ row: Int) -> Int { (row * atlasWidth + column) * 4 }
        for row in 0..<h {
          let line = from + row * rowBytes
          (to + offset(x + 1, y + 1 + row)).update(from: line, count: rowBytes)
          guard wraps else { continue }
          (to + offset(x, y + 1 + row)).update(from: line + rowBytes - 4, count: 4)
          (to + offset(x + w + 1, y + 1 + row)).update(from: line, count: 4)
        }
        guard wraps else { return }
        (to + offset(x + 1, y)).update(from: from + (h - 1) * rowBytes, count: rowBytes)
        (to + offset(x + 1, y + h + 1)).update(from: from, count: rowBytes)
      }
    }
  }
}

/// The texture of a style's pattern atlas, by style revision.
struct PatternAtlasKey: Hashable, Sendable, CustomStringConvertible {
  let revision: Int
  var description: String { "pattern atlas of style revision \(revision)" }
}
