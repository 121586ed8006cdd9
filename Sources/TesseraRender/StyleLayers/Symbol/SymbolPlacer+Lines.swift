import Foundation
import TesseraNumbers

/// A label laid along its line for one frame: each glyph's corners (clip space) and the
/// boxes it needs free on screen.
struct LineLabelLayout {
  var corners: [QuadCorners] = []
  var quads: [SymbolQuad] = []
  var boxes: [CollisionGrid.Box] = []
  /// Whether the unflipped label runs more up and down the screen than across (a label with
  /// a vertical version is then written downwards instead).
  var runsVertically = false
}

extension SymbolPlacer {
  /// MapLibre's curved labels: each glyph placed at its distance along the line from the
  /// anchor, turned with the segment it falls on, in the label's plane (the map for labels
  /// lying on it, else the screen); the whole label flipped to read left to right
  /// (`text-keep-upright`); nil when a glyph runs off the line's end.
  func layoutAlongLine(
    _ candidate: Candidate, label: ShapedLabel, fontScale: Double, pitchWithMap: Bool, keepUpright: Bool,
    translate: SIMD2<Double>, perspective: Double, textScale: Double, anchor: Projected, vertical: Bool = false
  ) -> LineLabelLayout? {
    guard let line = candidate.instance.line, !label.quads.isEmpty else { return nil }
    let segment = candidate.instance.segment
    // Line vertices in the label's plane: world offsets (points) on the map, screen points
    // facing the viewer.
    var vertices = [SIMD2<Double>?](repeating: nil, count: line.count)
    func world(_ index: Int) -> SIMD2<Double> { candidate.origin + line[index] * candidate.unit }
    /// The vertex in the label's plane; nil when it is behind the camera.
    func vertex(_ index: Int) -> SIMD2<Double>? {
      if let known = vertices[index] { return known }
      let point = pitchWithMap ? world(index) : project(dx: world(index).x, dy: world(index).y)?.screen
      vertices[index] = point
      return point
    }
    let start = pitchWithMap ? candidate.offset : anchor.screen
    func place(_ offsetX: Double, flip: Bool) -> (point: SIMD2<Double>, angle: Double)? {
      var direction = offsetX > 0 ? 1 : -1
      var angle = 0.0
      if flip {
        direction = -direction
        angle = .pi
      }
      if direction < 0 { angle += .pi }
      var index = direction > 0 ? segment : segment + 1
      var current = start
      var previous = start
      var toPrevious = 0.0
      var segmentLength = 0.0
      let distance = abs(offsetX)
      while toPrevious + segmentLength <= distance {
        index += direction
        guard index >= 0, index < line.count else { return nil }
        previous = current
        if let next = vertex(index) {
          current = next
        } else {
          // Behind the camera: a point far enough along the segment's screen direction
          // (MapLibre's truncated segment).
          let previousWorld = toPrevious == 0 ? candidate.offset : world(index - direction)
          let away = previousWorld - world(index)
          let length = (away.x * away.x + away.y * away.y).squareRoot()
          guard length > 0,
            let unit = project(dx: previousWorld.x + away.x / length, dy: previousWorld.y + away.y / length)?.screen
          else { return nil }
          let step = previous - unit
          let stepLength = (step.x * step.x + step.y * step.y).squareRoot()
          guard stepLength > 0 else { return nil }
          current = previous + step * ((distance - toPrevious + 1) / stepLength)
        }
        toPrevious += segmentLength
        segmentLength = LineAnchors.distance(previous, current)
      }
      let t = segmentLength == 0 ? 0 : (distance - toPrevious) / segmentLength
      return (previous + (current - previous) * t, angle + atan2(current.y - previous.y, current.x - previous.x))
    }
    func screen(_ point: SIMD2<Double>) -> SIMD2<Double>? {
      pitchWithMap ? project(dx: point.x, dy: point.y)?.screen : point
    }
    var flip = false
    var runsVertically = false
    /// The screen point of the segment's end, or of a point of the segment nearer the anchor
    /// when the end is behind the camera (MapLibre's truncated segment).
    func segmentEndOnScreen() -> SIMD2<Double>? {
      let anchorWorld = candidate.offset
      var end = candidate.origin + line[segment + 1] * candidate.unit
      for _ in 0..<12 {
        if let point = project(dx: end.x, dy: end.y)?.screen { return point }
        end = (anchorWorld + end) / 2
      }
      return nil
    }
    if keepUpright, label.quads.count == 1, segment + 1 < line.count,
      let a = project(
        dx: candidate.offset.x, dy: candidate.offset.y)?.screen, let b = segmentEndOnScreen()
    {
      // One glyph: turned by the direction of its segment on screen (MapLibre).
      flip = vertical ? a.y > b.y : a.x > b.x
      runsVertically = !vertical && abs(b.y - a.y) > abs(b.x - a.x)
    } else if keepUpright, let first = label.quads.first, let last = label.quads.last,
      let a = place(first.alongLine * fontScale, flip: false).flatMap({ screen($0.point) }),
      let b = place(last.alongLine * fontScale, flip: false).flatMap({ screen($0.point) })
    {
      // Read left to right, or top to bottom when written downwards.
      flip = vertical ? a.y > b.y : a.x > b.x
      runsVertically = !vertical && abs(b.y - a.y) > abs(b.x - a.x)
    }
    var layout = LineLabelLayout()
    layout.runsVertically = runsVertically
    let m = matrix.elements
    let shiftWorld = SIMD2(
      transform.cosBearing * translate.x - transform.sinBearing * translate.y,
      transform.sinBearing * translate.x + transform.cosBearing * translate.y)
    // Squares around each glyph as wide as the label is tall: the collision boxes when the
    // label has no circles of its own (``lineCircles``).
    let half = label.box.height / 2 * textScale * perspective
    for quad in label.quads {
      guard let placed = place(quad.alongLine * fontScale, flip: flip) else { return nil }
      let (c, s) = (cos(placed.angle), sin(placed.angle))
      func corner(_ local: SIMD2<Double>) -> SIMD4<Double> {
        let p =
          placed.point
          + SIMD2(c * local.x * fontScale - s * local.y * fontScale, s * local.x * fontScale + c * local.y * fontScale)
        if pitchWithMap {
          let (dx, dy) = (p.x + shiftWorld.x, p.y + shiftWorld.y)
          return SIMD4(
            m[0] * dx + m[4] * dy + m[12], m[1] * dx + m[5] * dy + m[13], m[2] * dx + m[6] * dy + m[14],
            m[3] * dx + m[7] * dy + m[15])
        }
        return clip(screen: p + translate)
      }
      layout.corners.append(
        QuadCorners(
          topLeft: corner(quad.topLeft), topRight: corner(quad.topRight), bottomLeft: corner(quad.bottomLeft),
          bottomRight: corner(quad.bottomRight)))
      layout.quads.append(quad)
      guard let center = screen(placed.point) else { return nil }
      let middle = center + translate
      layout.boxes.append(
        CollisionGrid.Box(minX: middle.x - half, minY: middle.y - half, maxX: middle.x + half, maxY: middle.y + half))
    }
    return layout
  }

  /// MapLibre Native's collision circles of a label along a line for this frame: the circles
  /// laid out in the tile (``LineCollisionCircles``) that the label's first and last glyphs
  /// reach, projected onto the screen with a radius scaled by the perspective ratio only, and
  /// thinned where they crowd (closer than √2 radii); nil when none can be used.
  func lineCircles(
    _ candidate: Candidate, label: ShapedLabel, textScale: Double, perspective: Double, translate: SIMD2<Double>
  ) -> [CollisionGrid.Box]? {
    let circles = candidate.instance.lineCircles
    guard let first = label.quads.first, let last = label.quads.last, candidate.unit > 0 else { return nil }
    // The glyphs' reach along the line in bucket units (label-plane pixels at the text size).
    let before = abs(first.alongLine * textScale) / candidate.unit
    let after = abs(last.alongLine * textScale) / candidate.unit
    let radius = candidate.instance.lineCircleRadius * perspective * candidate.tileUnit
    func usable(_ circle: LineCollisionCircle) -> Bool {
      circle.distanceFromAnchor >= -before && circle.distanceFromAnchor <= after
    }
    var boxes: [CollisionGrid.Box] = []
    var previous: SIMD2<Double>?
    for (index, circle) in circles.enumerated() {
      guard usable(circle) else {
        previous = nil
        continue
      }
      let world = candidate.origin + circle.center * candidate.unit
      guard let point = project(dx: world.x, dy: world.y)?.screen else { return nil }
      if let last = previous {
        let d = point - last
        if radius * radius * 2 > d.x * d.x + d.y * d.y, index + 1 < circles.count, usable(circles[index + 1]) {
          // Crowded: left out while a later circle can take its place.
          previous = nil
          continue
        }
      }
      previous = point
      let center = point + translate
      boxes.append(.circle(x: center.x, y: center.y, radius: radius))
    }
    return boxes.isEmpty ? nil : boxes
  }

  /// The direction of the line at the anchor, radians in the map's axes (for icons turned
  /// along lines), turned half a turn when `keepUpright` and it would read upside down on
  /// screen.
  func lineAngle(_ candidate: Candidate, keepUpright: Bool) -> Double {
    guard let line = candidate.instance.line, candidate.instance.segment + 1 < line.count else { return 0 }
    // As MapLibre places an icon (one glyph at offset 0): from the (rounded) anchor back to
    // the segment's start, or further back while that is where the anchor lies; the angle is
    // the direction from there to the anchor.
    let anchor = candidate.instance.anchor
    var index = candidate.instance.segment + 1
    var start = anchor
    repeat {
      index -= 1
      start = index >= 0 ? line[index] : anchor
    } while index > 0 && start == anchor
    var angle: Double
    if start == anchor {
      let a = line[candidate.instance.segment]
      let b = line[candidate.instance.segment + 1]
      angle = atan2(b.y - a.y, b.x - a.x)
    } else {
      angle = atan2(anchor.y - start.y, anchor.x - start.x)
    }
    if keepUpright {
      // Upright on screen: the map's angle turned by the bearing stays within ±90°.
      let screenAngle = angle - transform.camera.bearing * .pi / 180
      let wrapped = atan2(sin(screenAngle), cos(screenAngle))
      if wrapped > .pi / 2 || wrapped < -.pi / 2 { angle += .pi }
    }
    return angle
  }
}
