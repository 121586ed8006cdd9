import Foundation
import TesseraNumbers

/// Where a label at a variable anchor moves its anchor to when drawn: along the screen, or
/// along the map's axes (labels lying on the map).
enum AnchorShift {
  /// Screen points, added to the projected anchor.
  case screen(SIMD2<Double>)
  /// World points along the map's axes, added to the anchor before it is projected.
  case map(SIMD2<Double>)

  static let none = AnchorShift.screen(.zero)
}

extension SymbolPlacer {
  /// A variable anchor's shift (points, in the label's frame) as MapLibre Native moves the
  /// label's collision box by it (screen points, before the perspective ratio): turned by the
  /// bearing for text rotated with the map (the other way for text also lying on the map),
  /// as it is otherwise.
  func collisionShift(_ shift: SIMD2<Double>, values: LayerValues) -> SIMD2<Double> {
    guard values.textRotateWithMap, transform.camera.bearing != 0 else { return shift }
    let degrees = values.textPitchWithMap ? -transform.camera.bearing : transform.camera.bearing
    return SymbolPlacer.turned(shift, radians: degrees * .pi / 180)
  }

  /// A variable anchor's shift (points, in the label's frame) as MapLibre Native moves a
  /// drawn label by it: grown by the perspective ratio at the anchor, then along the map's
  /// axes for text lying on the map, else along the screen (turned by the view's tilt for
  /// text rotated with the map, as MapLibre Native turns it).
  func renderShift(_ shift: SIMD2<Double>, perspective: Double, values: LayerValues) -> AnchorShift {
    let grown = shift * perspective
    if values.textPitchWithMap { return .map(grown) }
    guard values.textRotateWithMap, transform.camera.viewingAngle != 0 else { return .screen(grown) }
    return .screen(SymbolPlacer.turned(grown, radians: -transform.camera.viewingAngle * .pi / 180))
  }

  /// `vector` turned by `radians` (clockwise on screen, y pointing down).
  static func turned(_ vector: SIMD2<Double>, radians: Double) -> SIMD2<Double> {
    let (c, s) = (cos(radians), sin(radians))
    return SIMD2(c * vector.x - s * vector.y, s * vector.x + c * vector.y)
  }
}
