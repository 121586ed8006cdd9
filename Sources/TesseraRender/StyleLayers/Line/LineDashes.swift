import Foundation
import TesseraGL
import TesseraNumbers
import TesseraStyle

/// A line layer's dash pattern as the `line` program's DASHED variant reads it, made as MapLibre
/// Native makes it: a 256-texel-wide signed-distance texture of one period (one row for butt and
/// square caps; 15 rows, in a 16-row texture, for round caps, whose rows round each dash's ends),
/// repeated along the line and sampled with linear filtering. Lengths are line widths at the
/// integer zoom, so dashes scale with the map between integer zooms.
struct LineDashes: Hashable {
  /// The dash array: dash and gap lengths in line widths.
  let lengths: [Double]
  let round: Bool
  /// The line width at the integer zoom, points.
  let floorWidth: Double

  /// Texels across one period.
  static let textureWidth = 256
  /// Rows either side of a round pattern's middle row.
  static let roundRows = 7

  /// The layer's pattern at style zoom `zoom`, or nil when it has none (an array of fewer than
  /// two lengths, or of zero lengths only, draws a solid line).
  init?(layer: StyleLayer, zoom: Double) {
    guard let texture = LineDashes(textureOf: layer, zoom: zoom) else { return nil }
    lengths = texture.lengths
    round = texture.round
    floorWidth = layer.value(LineProperties.width, zoom: Foundation.floor(zoom))
  }

  /// The layer's pattern at style zoom `zoom` with the width left out (what its texture depends
  /// on: the width is not evaluated), or nil as ``init(layer:zoom:)``.
  init?(textureOf layer: StyleLayer, zoom: Double) {
    guard let lengths = layer.value(LineProperties.dashArray, zoom: zoom)?.map({ max($0, 0) }), lengths.count >= 2,
      lengths.reduce(0, +) > 0, lengths.allSatisfy(\.isFinite)
    else { return nil }
    self.lengths = lengths
    round = layer.value(LineProperties.cap, zoom: zoom) == .round
    floorWidth = 0
  }

  /// Every pattern the layer may draw, without widths, in order of the zoom that first draws it:
  /// sampled every tenth of a zoom from 0 to 24 (patterns change only at steps), or once when
  /// neither the dash array nor the cap reads the zoom.
  static func textures(of layer: StyleLayer) -> [LineDashes] {
    let readsZoom =
      !layer[LineProperties.dashArray].expression.isZoomConstant || !layer[LineProperties.cap].expression.isZoomConstant
    var seen = Set<LineDashes>()
    var found: [LineDashes] = []
    for step in readsZoom ? 0...240 : 0...0 {
      guard let dashes = LineDashes(textureOf: layer, zoom: Double(step) / 10), seen.insert(dashes).inserted
      else { continue }
      found.append(dashes)
    }
    return found
  }

  /// One period's length in line widths.
  var period: Double { lengths.reduce(0, +) }

  /// The texture's rows (a power of two, as GL ES 2 asked of repeated textures).
  var textureHeight: Int { round ? 16 : 1 }

  /// What the texture depends on (shared by every layer with the same pattern).
  var textureKey: ResourceKey {
    ResourceKey(DashTextureKey(lengths: lengths.map { Float($0) }, round: round))
  }

  /// One part of the period, in texels.
  struct Range {
    var left: Double
    var right: Double
    let isDash: Bool
    let isZeroLength: Bool
  }

  /// The period's dashes and gaps in texels (an odd-length array's first dash starts before 0:
  /// it continues the previous period's last).
  func ranges(stretch: Double) -> [Range] {
    var ranges: [Range] = []
    let odd = lengths.count % 2 == 1
    ranges.append(
      Range(
        left: odd ? -lengths.last! * stretch : 0, right: lengths[0] * stretch, isDash: true,
        isZeroLength: lengths[0] == 0))
    var travelled = lengths[0]
    for index in 1..<lengths.count {
      let left = travelled * stretch
      travelled += lengths[index]
      ranges.append(
        Range(left: left, right: travelled * stretch, isDash: index % 2 == 0, isZeroLength: lengths[index] == 0))
    }
    return ranges
  }

  /// The texels: signed distances (texels, +128) from the nearest dash edge, positive inside a
  /// dash, in all four channels.
  func texels() -> [UInt8] {
    let width = LineDashes.textureWidth
    let stretch = Double(width) / period
    var values = [UInt8](repeating: 0, count: width * textureHeight)
    func store(_ distance: Double, row: Int, x: Int) {
      values[row * width + x] = UInt8(clamping: max(0, min(255, distance + 128)).rounded(.towardZero))
    }
    /// Walks the texels of a row through `ranges` as MapLibre Native does (a range ends where
    /// x passes its right edge).
    func walk(_ ranges: [Range], _ body: (Int, Range) -> Void) {
      var current = 0
      var range = ranges[0]
      for x in 0..<width {
        if Double(x) / range.right > 1, current + 1 < ranges.count {
          current += 1
          range = ranges[current]
        }
        body(x, range)
      }
    }
    if round {
      let n = LineDashes.roundRows
      let half = stretch / 2
      for y in -n...n {
        walk(ranges(stretch: stretch)) { x, range in
          let nearest = min(abs(Double(x) - range.left), abs(Double(x) - range.right))
          let middle = Double(y) / Double(n) * (half + 1)
          let distance: Double
          if range.isDash {
            let edge = half - abs(middle)
            distance = (nearest * nearest + edge * edge).squareRoot()
          } else {
            distance = half - (nearest * nearest + middle * middle).squareRoot()
          }
          store(distance, row: n + y, x: x)
        }
      }
    } else {
      // Zero lengths vanish and neighbours of one kind merge; a period starting and ending
      // with the same kind joins across its ends.
      var ranges = ranges(stretch: stretch).filter { !$0.isZeroLength }
      guard !ranges.isEmpty else { return values }
      var merged: [Range] = [ranges[0]]
      for range in ranges.dropFirst() {
        if range.isDash == merged[merged.count - 1].isDash {
          merged[merged.count - 1].right = range.right
        } else {
          merged.append(range)
        }
      }
      ranges = merged
      // (A lone range is both first and last: it reaches a period beyond either end.)
      if ranges[0].isDash == ranges[ranges.count - 1].isDash {
        ranges[0].left = ranges[ranges.count - 1].left - Double(width)
        ranges[ranges.count - 1].right = ranges[0].right + Double(width)
      }
      walk(ranges) { x, range in
        let nearest = min(abs(Double(x) - range.left), abs(Double(x) - range.right))
        store(range.isDash ? nearest : -nearest, row: 0, x: x)
      }
    }
    return values.flatMap { [$0, $0, $0, $0] }
  }

  static let image = UniformSlot<Int32>("u_image")
  /// x: periods per tile unit per line width; y: texture rows per unit of the line's side.
  static let patternScale = UniformSlot<SIMD2<Float>>("u_patternscale")
  /// The texture row of the line's centre (0…1).
  static let textureY = UniformSlot<Float>("u_tex_y")
  /// The half-width of the edge's smoothing, in distance units per line width.
  static let sdfGamma = UniformSlot<Float>("u_sdfgamma")
  static let floorWidth = UniformSlot<Float>("u_floorwidth")

  /// Sets the dash uniforms for a bucket in the coordinates of a tile of zoom `tileZoom`, at
  /// style zoom `zoom` on a screen of `pixelRatio` device pixels per point.
  func setUniforms(_ uniforms: inout UniformValues, tileZoom: Int, zoom: Double, pixelRatio: Double) {
    // Pattern lengths are points at the integer zoom of the camera (MapLibre's tile zoom).
    let integerZoom = max(Foundation.floor(zoom), 0)
    let unitsPerPoint = BucketGeometry.extent / (512 * pow(2, integerZoom - Double(tileZoom)))
    let rows = Double(textureHeight)
    let n = Double(round ? LineDashes.roundRows : 0)
    uniforms.set(LineDashes.image, 0)
    uniforms.set(LineDashes.patternScale, SIMD2(Float(1 / (period * unitsPerPoint)), Float(-(2 * n + 1) / rows / 2)))
    uniforms.set(LineDashes.textureY, Float((0.5 + n) / rows))
    // MapLibre Native's gamma takes the smaller of the two zooms' pattern widths it fades
    // between: half the period at an integer zoom (zooming out from the next), else the period.
    let faded = zoom > Foundation.floor(zoom) ? period : period / 2
    uniforms.set(LineDashes.sdfGamma, Float(1 / (faded * pixelRatio) / 2))
    uniforms.set(LineDashes.floorWidth, Float(floorWidth))
  }
}

/// The texture of one dash pattern: its lengths (line widths) and whether its ends are round.
struct DashTextureKey: Hashable, Sendable, CustomStringConvertible {
  let lengths: [Float]
  let round: Bool
  var description: String { "dash pattern \(lengths)\(round ? " round" : "")" }
}
