import Foundation
import TesseraNumbers

/// Turns polylines (tile units) into triangles whose vertices carry an extrusion direction,
/// so the shader can give the line any width in screen points: the geometry of MapLibre's line
/// buckets.
///
/// Each vertex holds the line point, an extrusion vector (the side normal, or the miter/bevel
/// direction, quantised to 1/63 as MapLibre packs it), a "round" flag and side (±1) that the
/// fragment stage uses for antialiasing and round shapes, a direction (−1, 0, 1) for cap ends,
/// and the distance along the line (tile units) for dashes.
package struct LineTessellator {
  package enum Join: String, Sendable { case miter, bevel, round }
  package enum Cap: String, Sendable { case butt, square, round }

  /// One output vertex, as ``vertices`` reads it back from ``vertexData``.
  package struct Vertex {
    package var x: Float
    package var y: Float
    /// 1 for vertices of round joins and caps, else 0.
    package var round: Float
    /// +1 on one side of the line, −1 on the other.
    package var side: Float
    package var extrudeX: Float
    package var extrudeY: Float
    package var direction: Float
    /// Distance along the line from its start, tile units.
    package var distance: Float
  }

  package var cap: Cap = .butt
  package var miterLimit = 2.0
  package var roundLimit = 1.05
  /// Tile units per 512-pixel tile divided by the overscale factor (the sharp-corner offset is
  /// 15 pixels of a 512 tile).
  package var sharpCornerOffset = 15.0 * 8
  /// The vertices as floats, ``floatsPerVertex`` each: x, y, round, side, extrudeX,
  /// extrudeY, direction, distance (written straight into the mesh's layout, never copied).
  package private(set) var vertexData: [Float] = []
  package private(set) var indices: [UInt32] = []

  /// Vertices added so far.
  package var vertexCount: Int { vertexData.count / LineTessellator.floatsPerVertex }

  private var e1 = -1
  private var e2 = -1
  private var e3 = -1
  private var distance = 0.0

  package init() {}

  /// Makes room for lines of `points` points in all (counted before duplicates are dropped),
  /// so the arrays are not grown, copied and their fresh pages touched again as they fill:
  /// a straight line takes 2 vertices and 6 indices a point; joins, caps and sharp corners
  /// take more, and the arrays grow past the estimate only then.
  package mutating func reserveCapacity(points: Int) {
    let vertices = 2 * points + points / 2
    vertexData.reserveCapacity(vertexData.count + vertices * LineTessellator.floatsPerVertex)
    indices.reserveCapacity(indices.count + 3 * vertices)
  }

  static let cosHalfSharpCorner = cos(75.0 / 2 * .pi / 180)
  static let degreesPerTriangle = 20.0

  /// Adds one polyline, or a closed ring when `closed` (polygon outlines; as in MapLibre, a
  /// line string whose ends meet keeps its caps), with the given join.
  package mutating func add(_ input: [(Double, Double)], join: Join, closed: Bool) {
    // Drop consecutive duplicates.
    var points: [(Double, Double)] = []
    points.reserveCapacity(input.count + 1)
    for point in input where points.last.map({ $0 != point }) ?? true { points.append(point) }
    guard points.count >= 2 else { return }
    let isClosed = closed
    // A closed ring keeps (or gains) its closing point: the first point is visited again at
    // the end as a middle vertex, so the strip closes with a proper join.
    if isClosed && points.first! != points.last! { points.append(points[0]) }
    guard points.count >= (isClosed ? 4 : 2) else { return }
    distance = 0
    e1 = -1
    e2 = -1
    e3 = -1
    let count = points.count
    var previous: (Double, Double)?
    var current: (Double, Double)?
    var previousNormal: (Double, Double)?
    var nextNormal: (Double, Double)?
    if isClosed {
      current = points[count - 2]
      nextNormal = LineTessellator.normal(from: points[count - 2], to: points[0])
    }
    for index in 0..<count {
      let next: (Double, Double)? = index == count - 1 ? (isClosed ? points[1] : nil) : points[index + 1]
      if let next, points[index] == next { continue }
      if let nextNormal { previousNormal = nextNormal }
      if let current { previous = current }
      var point = points[index]
      nextNormal = next.map { LineTessellator.normal(from: point, to: $0) } ?? previousNormal
      let nextN = nextNormal!
      let prevN = previousNormal ?? nextN
      previousNormal = prevN
      // The join normal bisects the two segment normals (zero for a U-turn: an infinite miter).
      let joinNormal = LineTessellator.normalize((prevN.0 + nextN.0, prevN.1 + nextN.1))
      let cosAngle = prevN.0 * nextN.0 + prevN.1 * nextN.1
      let cosHalfAngle = joinNormal.0 * nextN.0 + joinNormal.1 * nextN.1
      let miterLength = cosHalfAngle != 0 ? 1 / cosHalfAngle : Double.infinity
      let approximateAngle = 2 * (max(2 - 2 * cosHalfAngle, 0)).squareRoot()
      let isSharpCorner = cosHalfAngle < LineTessellator.cosHalfSharpCorner && previous != nil && next != nil
      let turnsLeft = prevN.0 * nextN.1 - prevN.1 * nextN.0 > 0

      if isSharpCorner, index > 0, let prev = previous {
        let length = LineTessellator.length(point, prev)
        if length > 2 * sharpCornerOffset {
          let back = (
            point.0 - ((point.0 - prev.0) * sharpCornerOffset / length).rounded(),
            point.1 - ((point.1 - prev.1) * sharpCornerOffset / length).rounded()
          )
          distance += LineTessellator.length(back, prev)
          addCurrentVertex(back, prevN, 0, 0, round: false)
          previous = back
        }
      }

      let middleVertex = previous != nil && next != nil
      // Rings have no ends; other lines end in their cap.
      var currentJoin = middleVertex ? join.rawValue : (isClosed ? "butt" : cap.rawValue)
      // A bevel is drawn for anything but a nearly straight join.
      let miterLimit = join == .bevel ? 1.05 : self.miterLimit
      if middleVertex && currentJoin == "round" {
        if miterLength < roundLimit {
          currentJoin = "miter"
        } else if miterLength <= 2 {
          currentJoin = "fakeround"
        }
      }
      if currentJoin == "miter" && miterLength > miterLimit { currentJoin = "bevel" }
      if currentJoin == "bevel" {
        if miterLength > 2 { currentJoin = "flipbevel" }
        if miterLength < miterLimit { currentJoin = "miter" }
      }
      if let prev = previous { distance += LineTessellator.length(point, prev) }

      switch currentJoin {
      case "miter":
        addCurrentVertex(point, (joinNormal.0 * miterLength, joinNormal.1 * miterLength), 0, 0, round: false)
      case "flipbevel":
        if miterLength > 100 {
          // Almost a U-turn: a plain cut across.
          addCurrentVertex(point, (-nextN.0, -nextN.1), 0, 0, round: false)
          addCurrentVertex(point, nextN, 0, 0, round: false)
        } else {
          let direction: Double = turnsLeft ? -1 : 1
          let sum = LineTessellator.length((prevN.0 + nextN.0, prevN.1 + nextN.1), (0, 0))
          let difference = LineTessellator.length((prevN.0 - nextN.0, prevN.1 - nextN.1), (0, 0))
          let bevelLength = miterLength * sum / difference
          let perpendicular = (-joinNormal.1 * bevelLength * direction, joinNormal.0 * bevelLength * direction)
          addCurrentVertex(point, perpendicular, 0, 0, round: false)
          addCurrentVertex(point, (-perpendicular.0, -perpendicular.1), 0, 0, round: false)
        }
      case "bevel", "fakeround":
        let offset = -(max(miterLength * miterLength - 1, 0)).squareRoot()
        let offsetA = turnsLeft ? offset : 0
        let offsetB = turnsLeft ? 0 : offset
        if previous != nil { addCurrentVertex(point, prevN, offsetA, offsetB, round: false) }
        if currentJoin == "fakeround" {
          let pieces = Int(clamping: (approximateAngle * 180 / .pi / LineTessellator.degreesPerTriangle).rounded())
          for piece in stride(from: 1, to: pieces, by: 1) {
            var t = Double(piece) / Double(pieces)
            if t != 0.5 {
              // Corrects linear interpolation of the normals toward a circle.
              let t2 = t - 0.5
              let a = 1.0904 + cosAngle * (-3.2452 + cosAngle * (3.55645 - cosAngle * 1.43519))
              let b = 0.848013 + cosAngle * (-1.06021 + cosAngle * 0.215638)
              t += t * t2 * (t - 1) * (a * t2 * t2 + b)
            }
            let blended = LineTessellator.normalize(
              (prevN.0 + (nextN.0 - prevN.0) * t, prevN.1 + (nextN.1 - prevN.1) * t))
            addPieSliceVertex(point, blended, turnsLeft: turnsLeft)
          }
        }
        if next != nil { addCurrentVertex(point, nextN, -offsetA, -offsetB, round: false) }
      case "butt":
        addCurrentVertex(point, joinNormal, 0, 0, round: false)
      case "square":
        // The cap is a quad of its own, so it does not stretch the line's distances.
        let offset: Double = previous != nil ? 1 : -1
        if previous == nil { addCurrentVertex(point, joinNormal, offset, offset, round: false) }
        addCurrentVertex(point, joinNormal, 0, 0, round: false)
        if previous != nil { addCurrentVertex(point, joinNormal, offset, offset, round: false) }
      case "round":
        if previous != nil {
          addCurrentVertex(point, prevN, 0, 0, round: false)
          addCurrentVertex(point, prevN, 1, 1, round: true)
          e1 = -1
          e2 = -1
        }
        if next != nil {
          addCurrentVertex(point, nextN, -1, -1, round: true)
          addCurrentVertex(point, nextN, 0, 0, round: false)
        }
      default:
        break
      }

      if isSharpCorner, index < count - 1, let next {
        let length = LineTessellator.length(point, next)
        if length > 2 * sharpCornerOffset {
          let ahead = (
            point.0 + ((next.0 - point.0) * sharpCornerOffset / length).rounded(),
            point.1 + ((next.1 - point.1) * sharpCornerOffset / length).rounded()
          )
          distance += LineTessellator.length(ahead, point)
          addCurrentVertex(ahead, nextN, 0, 0, round: false)
          point = ahead
        }
      }
      current = point
    }
  }

  /// Two vertices across the line at `point`: one on each side of `normal`, pushed along the
  /// line by `endLeft` / `endRight` line half-widths (caps).
  private mutating func addCurrentVertex(
    _ point: (Double, Double), _ normal: (Double, Double), _ endLeft: Double, _ endRight: Double, round: Bool
  ) {
    // perp() of (x, y) is (−y, x).
    var extrude = normal
    if endLeft != 0 { extrude = (extrude.0 + normal.1 * endLeft, extrude.1 - normal.0 * endLeft) }
    addHalfVertex(point, extrude, round: round, up: false, direction: endLeft)
    extrude = (-normal.0, -normal.1)
    if endRight != 0 { extrude = (extrude.0 + normal.1 * endRight, extrude.1 - normal.0 * endRight) }
    addHalfVertex(point, extrude, round: round, up: true, direction: -endRight)
  }

  private mutating func addHalfVertex(
    _ point: (Double, Double), _ extrude: (Double, Double), round: Bool, up: Bool, direction: Double
  ) {
    let quantised = ((extrude.0 * 63).rounded() / 63, (extrude.1 * 63).rounded() / 63)
    appendVertex(
      point, round: round ? 1 : 0, side: up ? 1 : -1, extrude: quantised,
      direction: direction == 0 ? 0 : (direction < 0 ? -1 : 1))
    e3 = vertexCount - 1
    if e1 >= 0 && e2 >= 0 { addTriangle() }
    if up { e2 = e3 } else { e1 = e3 }
  }

  /// Appends one vertex's floats in ``vertexData``'s order, at the current distance.
  private mutating func appendVertex(
    _ point: (Double, Double), round: Float, side: Float, extrude: (Double, Double), direction: Float
  ) {
    vertexData.append(Float(point.0))
    vertexData.append(Float(point.1))
    vertexData.append(round)
    vertexData.append(side)
    vertexData.append(Float(extrude.0))
    vertexData.append(Float(extrude.1))
    vertexData.append(direction)
    vertexData.append(storedDistance)
  }

  /// The triangle of the last three vertices (appended one index at a time: an array literal
  /// per triangle would be allocated on the heap).
  private mutating func addTriangle() {
    indices.append(UInt32(e1))
    indices.append(UInt32(e2))
    indices.append(UInt32(e3))
  }

  /// The distance along the line as vertices store it: whole multiples of 2 tile units (the
  /// precision MapLibre keeps, so dashes start where they start there).
  private var storedDistance: Float { Float((distance / 2).rounded(.down) * 2) }

  /// An extra vertex of a round join's fan.
  private mutating func addPieSliceVertex(_ point: (Double, Double), _ extrude: (Double, Double), turnsLeft: Bool) {
    let direction = turnsLeft ? (-extrude.0, -extrude.1) : extrude
    let quantised = ((direction.0 * 63).rounded() / 63, (direction.1 * 63).rounded() / 63)
    appendVertex(point, round: 0, side: turnsLeft ? 1 : -1, extrude: quantised, direction: 0)
    e3 = vertexCount - 1
    if e1 >= 0 && e2 >= 0 { addTriangle() }
    if turnsLeft { e2 = e3 } else { e1 = e3 }
  }

  /// The unit normal of the segment from a to b: the direction rotated by 90° (perp of the
  /// unit direction, (−dy, dx)), so extrusions go to the segment's sides.
  static func normal(from a: (Double, Double), to b: (Double, Double)) -> (Double, Double) {
    let unit = normalize((b.0 - a.0, b.1 - a.1))
    return (-unit.1, unit.0)
  }

  static func normalize(_ v: (Double, Double)) -> (Double, Double) {
    let length = (v.0 * v.0 + v.1 * v.1).squareRoot()
    return length == 0 ? (0, 0) : (v.0 / length, v.1 / length)
  }

  static func length(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
    ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1)).squareRoot()
  }

  /// Floats per vertex in ``vertexData`` (the distance last).
  package static let floatsPerVertex = 8

  /// The vertices of ``vertexData``, one value each (for inspection; the mesh takes the floats).
  package var vertices: [Vertex] {
    stride(from: 0, to: vertexData.count, by: LineTessellator.floatsPerVertex).map { start in
      Vertex(
        x: vertexData[start], y: vertexData[start + 1], round: vertexData[start + 2], side: vertexData[start + 3],
        extrudeX: vertexData[start + 4], extrudeY: vertexData[start + 5], direction: vertexData[start + 6],
        distance: vertexData[start + 7])
    }
  }
}
