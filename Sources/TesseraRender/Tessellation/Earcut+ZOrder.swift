import TesseraNumbers

/// The z-order curve that indexes large polygons, so the ear test only looks near the ear.
extension Earcut.Builder {
  func zOrder(_ x: Double, _ y: Double) -> Int {
    var ix = Int(clamping: (x - minX) * inverseSize) | 0
    var iy = Int(clamping: (y - minY) * inverseSize) | 0
    ix = (ix | (ix << 8)) & 0x00FF_00FF
    ix = (ix | (ix << 4)) & 0x0F0F_0F0F
    ix = (ix | (ix << 2)) & 0x3333_3333
    ix = (ix | (ix << 1)) & 0x5555_5555
    iy = (iy | (iy << 8)) & 0x00FF_00FF
    iy = (iy | (iy << 4)) & 0x0F0F_0F0F
    iy = (iy | (iy << 2)) & 0x3333_3333
    iy = (iy | (iy << 1)) & 0x5555_5555
    return ix | (iy << 1)
  }

  mutating func indexCurve(_ start: Int) {
    var p = start
    repeat {
      if nodes[p].z == 0 { nodes[p].z = zOrder(nodes[p].x, nodes[p].y) }
      nodes[p].previousZ = nodes[p].previous
      nodes[p].nextZ = nodes[p].next
      p = nodes[p].next
    } while p != start
    nodes[nodes[p].previousZ].nextZ = -1
    nodes[p].previousZ = -1
    sortLinked(p)
  }

  /// Sorts the z-order list (Simon Tatham's linked-list merge sort).
  mutating func sortLinked(_ list: Int) {
    var list = list
    var inSize = 1
    var merges: Int
    repeat {
      var p = list
      list = -1
      var tail = -1
      merges = 0
      while p >= 0 {
        merges += 1
        var q = p
        var pSize = 0
        for _ in 0..<inSize {
          pSize += 1
          q = nodes[q].nextZ
          if q < 0 { break }
        }
        var qSize = inSize
        while pSize > 0 || (qSize > 0 && q >= 0) {
          let e: Int
          if pSize != 0 && (qSize == 0 || q < 0 || nodes[p].z <= nodes[q].z) {
            e = p
            p = nodes[p].nextZ
            pSize -= 1
          } else {
            e = q
            q = nodes[q].nextZ
            qSize -= 1
          }
          if tail >= 0 { nodes[tail].nextZ = e } else { list = e }
          nodes[e].previousZ = tail
          tail = e
        }
        p = q
      }
      nodes[tail].nextZ = -1
      inSize *= 2
    } while merges > 1
  }
}

extension Earcut {
  /// How far a triangulation's area is from the polygon's, relative to the polygon's area (0 is
  /// exact): a check for tests.
  package static func deviation(_ points: [(Double, Double)], holeStarts: [Int], triangles: [Int]) -> Double {
    func ringArea(_ start: Int, _ end: Int) -> Double {
      var sum = 0.0
      var j = end - 1
      for i in start..<end {
        sum += (points[j].0 - points[i].0) * (points[i].1 + points[j].1)
        j = i
      }
      return sum
    }
    let outerEnd = holeStarts.first ?? points.count
    var polygonArea = abs(ringArea(0, outerEnd))
    for (number, start) in holeStarts.enumerated() {
      let end = number + 1 < holeStarts.count ? holeStarts[number + 1] : points.count
      polygonArea -= abs(ringArea(start, end))
    }
    var trianglesArea = 0.0
    for index in stride(from: 0, to: triangles.count, by: 3) {
      let a = points[triangles[index]]
      let b = points[triangles[index + 1]]
      let c = points[triangles[index + 2]]
      trianglesArea += abs((a.0 - c.0) * (b.1 - a.1) - (a.0 - b.0) * (c.1 - a.1))
    }
    return polygonArea == 0 && trianglesArea == 0 ? 0 : abs((trianglesArea - polygonArea) / polygonArea)
  }
}
