import Foundation
import TesseraStyle

/// A line layer's dash pattern as the `line` program's DASHED variant reads it: dashes as
/// intervals of one period, touching dashes merged (a zero gap joins them, and an odd-length
/// array's last dash joins the next period's first, as in MapLibre).
struct LineDashes {
  /// Dash intervals in line widths (at most 4); the last may reach past the period.
  let dashes: [(start: Double, end: Double)]
  let period: Double
  let round: Bool
  /// The line width at the integer zoom, points.
  let floorWidth: Double

  /// The layer's pattern, or nil when it has none (or only zero lengths).
  init?(layer: StyleLayer, zoom: Double) {
    guard let lengths = layer.value(LineProperties.dashArray, zoom: zoom)?.map({ max($0, 0) }), !lengths.isEmpty
    else { return nil }
    let period = lengths.reduce(0, +)
    guard period > 0 else { return nil }
    round = layer.value(LineProperties.cap, zoom: zoom) == .round
    var dashes: [(start: Double, end: Double)] = []
    var position = 0.0
    for (index, length) in lengths.enumerated() {
      if index % 2 == 0 {
        if let last = dashes.last, last.end == position {
          dashes[dashes.count - 1].end = position + length
        } else {
          dashes.append((position, position + length))
        }
      }
      position += length
    }
    // A dash ending the period joins the first dash of the next one.
    if dashes.count > 1, let last = dashes.last, last.end == period, dashes[0].start == 0 {
      dashes[dashes.count - 1].end = period + dashes[0].end
      dashes.removeFirst()
    }
    // Zero-length dashes show only with round ends (as dots).
    if !round { dashes.removeAll { $0.end <= $0.start } }
    self.dashes = Array(dashes.prefix(4))
    self.period = period
    floorWidth = layer.value(LineProperties.width, zoom: Foundation.floor(zoom))
  }

  static let ratio = UniformSlot<Float>("u_dash_ratio")
  static let scale = UniformSlot<Float>("u_dash_scale")
  static let first = UniformSlot<SIMD4<Float>>("u_dash_a")
  static let second = UniformSlot<SIMD4<Float>>("u_dash_b")
  static let count = UniformSlot<Float>("u_dash_count")
  static let period = UniformSlot<Float>("u_dash_period")
  static let round = UniformSlot<Float>("u_dash_round")
  static let floorWidth = UniformSlot<Float>("u_floorwidth")

  /// Sets the dash uniforms for a bucket in the coordinates of a tile of zoom `tileZoom`.
  func setUniforms(_ uniforms: inout UniformValues, tileZoom: Int, zoom: Double) {
    // Pattern lengths are points at the integer zoom of the camera (MapLibre's tile zoom).
    let integerZoom = max(Foundation.floor(zoom), 0)
    let pointsPerUnit = 512 * pow(2, integerZoom - Double(tileZoom)) / BucketGeometry.extent
    var flat = dashes.flatMap { [Float($0.start), Float($0.end)] }
    while flat.count < 8 { flat.append(0) }
    uniforms.set(LineDashes.ratio, Float(pointsPerUnit))
    uniforms.set(LineDashes.scale, Float(pow(2, zoom - integerZoom)))
    uniforms.set(LineDashes.first, SIMD4(flat[0], flat[1], flat[2], flat[3]))
    uniforms.set(LineDashes.second, SIMD4(flat[4], flat[5], flat[6], flat[7]))
    uniforms.set(LineDashes.count, Float(dashes.count))
    uniforms.set(LineDashes.period, Float(period))
    uniforms.set(LineDashes.round, round ? 1 : 0)
    uniforms.set(LineDashes.floorWidth, Float(floorWidth))
  }
}
