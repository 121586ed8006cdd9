import Foundation
import TesseraNumbers

/// One of the collision circles of a label along a line, laid out in the tile (MapLibre
/// Native's `bboxifyLabel`): its centre on the line (bucket units) and its distance along the
/// line from the anchor, shortened a fifth, which decides whether the label reaches it.
struct LineCollisionCircle: Sendable {
  let center: SIMD2<Double>
  let distanceFromAnchor: Double
}

/// MapLibre Native's collision circles of labels along lines: circles half a box apart along
/// the line around the anchor, as tall as the label (padding included, at least ten pixels),
/// with extra circles beyond both ends for labels that grow as they move into the distance
/// on a tilted map. At placement only the circles the label's glyphs reach are used, each
/// projected onto the screen with a radius scaled only by the perspective ratio, so distant
/// labels keep more room around them than their shrunken text.
enum LineCollisionCircles {
  /// The circles of a label `length` long with boxes `boxSize` tall (bucket units) around
  /// `anchor` on segment `segment` of `line`; empty when the line does not reach far enough
  /// back.
  static func make(
    line: [SIMD2<Double>], anchor: SIMD2<Double>, segment: Int, length: Double, boxSize: Double, overscale: Double
  ) -> [LineCollisionCircle] {
    guard boxSize > 0, segment + 1 < line.count else { return [] }
    let step = boxSize / 2
    let count = max(Int(clamping: (length / step).rounded(.down)), 1)
    let paddingFactor = 1 + 0.4 * log2(max(overscale, 1))
    let paddingCount = Int(clamping: (Double(count) * paddingFactor / 2).rounded(.down))
    let firstBoxOffset = -boxSize / 2
    var point = anchor
    var index = segment + 1
    var anchorDistance = firstBoxOffset
    let labelStart = -length / 2
    let paddingStart = labelStart - length / 8
    // Back along the line to the first segment the label (and its padding) lies on.
    repeat {
      index -= 1
      if index < 0 {
        // The line ends before the padding does: enough if the label itself fits.
        if anchorDistance > labelStart { return [] }
        index = 0
        break
      }
      anchorDistance -= LineAnchors.distance(line[index], point)
      point = line[index]
    } while anchorDistance > paddingStart
    var segmentLength = LineAnchors.distance(line[index], line[index + 1])
    var circles: [LineCollisionCircle] = []
    for i in -paddingCount..<(count + paddingCount) {
      let boxOffset = Double(i) * step
      var toAnchor = labelStart + boxOffset
      // Circles beyond the label are spaced further apart.
      if boxOffset < 0 { toAnchor += boxOffset }
      if boxOffset > length { toAnchor += boxOffset - length }
      if toAnchor < anchorDistance { continue }
      while anchorDistance + segmentLength < toAnchor {
        anchorDistance += segmentLength
        index += 1
        if index + 1 >= line.count { return circles }
        segmentLength = LineAnchors.distance(line[index], line[index + 1])
      }
      let along = toAnchor - anchorDistance
      let (p0, p1) = (line[index], line[index + 1])
      let center = segmentLength > 0 ? p0 + (p1 - p0) * (along / segmentLength) : p0
      let padded = abs(toAnchor - firstBoxOffset) < step ? 0 : (toAnchor - firstBoxOffset) * 0.8
      circles.append(LineCollisionCircle(center: center, distanceFromAnchor: padded))
    }
    return circles
  }
}
