import TesseraNumbers

/// Polygon triangulation by ear clipping, in the manner of Mapbox's earcut: the outer ring and
/// its holes become one doubly linked ring (each hole joined to the outer ring by a bridge to
/// a visible vertex), then "ears" (convex vertices whose triangle holds no other vertex) are
/// cut off until three vertices remain. Large polygons index vertices by z-order curve so the
/// "no other vertex inside" test only looks near the ear. Degenerate input (self-touching rings,
/// collinear runs) is handled by falling back to filtering and splitting passes.
package enum Earcut {
  /// Triangle indices into `points` (flattened rings: the outer ring first, then each hole;
  /// `holeStarts` are the indices where holes begin). Rings may be closed or open.
  package static func triangulate(_ points: [(Double, Double)], holeStarts: [Int] = []) -> [Int] {
    var builder = Builder(points: points)
    return builder.run(holeStarts: holeStarts)
  }

  /// A vertex of the working ring.
  struct Node {
    var index: Int
    var x: Double
    var y: Double
    var previous = -1
    var next = -1
    var z = 0
    var previousZ = -1
    var nextZ = -1
    var steiner = false
  }

  struct Builder {
    let points: [(Double, Double)]
    var nodes: [Node] = []
    var triangles: [Int] = []
    var minX = 0.0
    var minY = 0.0
    var inverseSize = 0.0

    init(points: [(Double, Double)]) {
      self.points = points
      nodes.reserveCapacity(points.count + 16)
    }

    mutating func run(holeStarts: [Int]) -> [Int] {
      let outerEnd = holeStarts.first ?? points.count
      guard var outer = linkedRing(0, outerEnd, clockwise: true), nodes[outer].next != nodes[outer].previous else {
        return []
      }
      if !holeStarts.isEmpty { outer = eliminateHoles(holeStarts, outer: outer) }
      if points.count > 80 {
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        minX = .infinity
        minY = .infinity
        for point in points[0..<outerEnd] {
          minX = min(minX, point.0)
          minY = min(minY, point.1)
          maxX = max(maxX, point.0)
          maxY = max(maxY, point.1)
        }
        let size = max(maxX - minX, maxY - minY)
        inverseSize = size != 0 ? 32767 / size : 0
      }
      earcutLinked(outer, pass: 0)
      return triangles
    }

    // MARK: Ring construction

    /// Links points[start..<end] into a ring with the wanted winding (in the y-down sense:
    /// clockwise = positive shoelace sum). Returns the last node, or nil when empty.
    mutating func linkedRing(_ start: Int, _ end: Int, clockwise: Bool) -> Int? {
      var end = end
      if end - start > 1, points[start] == points[end - 1] { end -= 1 }
      guard end - start >= 3 else { return nil }
      var last: Int?
      if clockwise == (signedArea(start, end) > 0) {
        for index in start..<end { last = insert(index, after: last) }
      } else {
        for index in stride(from: end - 1, through: start, by: -1) { last = insert(index, after: last) }
      }
      if let current = last, equals(current, nodes[current].next) {
        remove(current)
        last = nodes[current].next
      }
      return last
    }

    func signedArea(_ start: Int, _ end: Int) -> Double {
      var sum = 0.0
      var j = end - 1
      for i in start..<end {
        sum += (points[j].0 - points[i].0) * (points[i].1 + points[j].1)
        j = i
      }
      return sum
    }

    mutating func insert(_ index: Int, after last: Int?) -> Int {
      let node = nodes.count
      nodes.append(Node(index: index, x: points[index].0, y: points[index].1))
      if let last {
        nodes[node].next = nodes[last].next
        nodes[node].previous = last
        nodes[nodes[last].next].previous = node
        nodes[last].next = node
      } else {
        nodes[node].previous = node
        nodes[node].next = node
      }
      return node
    }

    mutating func remove(_ node: Int) {
      let previous = nodes[node].previous
      let next = nodes[node].next
      nodes[next].previous = previous
      nodes[previous].next = next
      if nodes[node].previousZ >= 0 { nodes[nodes[node].previousZ].nextZ = nodes[node].nextZ }
      if nodes[node].nextZ >= 0 { nodes[nodes[node].nextZ].previousZ = nodes[node].previousZ }
    }

    func equals(_ a: Int, _ b: Int) -> Bool { nodes[a].x == nodes[b].x && nodes[a].y == nodes[b].y }

    /// Twice the signed area of triangle p, q, r (positive when it turns one way).
    func area(_ p: Int, _ q: Int, _ r: Int) -> Double {
      (nodes[q].y - nodes[p].y) * (nodes[r].x - nodes[q].x) - (nodes[q].x - nodes[p].x) * (nodes[r].y - nodes[q].y)
    }

    /// Drops duplicate and collinear vertices between `start` and `end`.
    mutating func filterPoints(_ start: Int, _ end: Int? = nil) -> Int {
      var end = end ?? start
      var p = start
      var again: Bool
      repeat {
        again = false
        let next = nodes[p].next
        if !nodes[p].steiner && (equals(p, next) || area(nodes[p].previous, p, next) == 0) {
          remove(p)
          p = nodes[p].previous
          end = p
          if p == nodes[p].next { break }
          again = true
        } else {
          p = next
        }
      } while again || p != end
      return end
    }

    // MARK: Ear cutting

    mutating func earcutLinked(_ start: Int, pass: Int) {
      var ear = start
      if pass == 0 && inverseSize != 0 { indexCurve(ear) }
      var stop = ear
      while nodes[ear].previous != nodes[ear].next {
        let previous = nodes[ear].previous
        let next = nodes[ear].next
        if inverseSize != 0 ? isEarHashed(ear) : isEar(ear) {
          triangles += [nodes[previous].index, nodes[ear].index, nodes[next].index]
          remove(ear)
          ear = nodes[next].next
          stop = nodes[next].next
          continue
        }
        ear = next
        if ear == stop {
          switch pass {
          case 0: earcutLinked(filterPoints(ear), pass: 1)
          case 1:
            let cured = cureLocalIntersections(filterPoints(ear))
            earcutLinked(cured, pass: 2)
          default: splitEarcut(ear)
          }
          return
        }
      }
    }

    func isEar(_ ear: Int) -> Bool {
      let a = nodes[ear].previous
      let c = nodes[ear].next
      if area(a, ear, c) >= 0 { return false }
      var p = nodes[c].next
      while p != a {
        if pointInTriangle(a, ear, c, p) && area(nodes[p].previous, p, nodes[p].next) >= 0 { return false }
        p = nodes[p].next
      }
      return true
    }

    func isEarHashed(_ ear: Int) -> Bool {
      let a = nodes[ear].previous
      let c = nodes[ear].next
      if area(a, ear, c) >= 0 { return false }
      let (ax, ay, bx, by, cx, cy) = (nodes[a].x, nodes[a].y, nodes[ear].x, nodes[ear].y, nodes[c].x, nodes[c].y)
      let minZ = zOrder(min(ax, bx, cx), min(ay, by, cy))
      let maxZ = zOrder(max(ax, bx, cx), max(ay, by, cy))
      var p = nodes[ear].previousZ
      var n = nodes[ear].nextZ
      while p >= 0 && nodes[p].z >= minZ && n >= 0 && nodes[n].z <= maxZ {
        if p != a && p != c && pointInTriangle(a, ear, c, p) && area(nodes[p].previous, p, nodes[p].next) >= 0 {
          return false
        }
        p = nodes[p].previousZ
        if n != a && n != c && pointInTriangle(a, ear, c, n) && area(nodes[n].previous, n, nodes[n].next) >= 0 {
          return false
        }
        n = nodes[n].nextZ
      }
      while p >= 0 && nodes[p].z >= minZ {
        if p != a && p != c && pointInTriangle(a, ear, c, p) && area(nodes[p].previous, p, nodes[p].next) >= 0 {
          return false
        }
        p = nodes[p].previousZ
      }
      while n >= 0 && nodes[n].z <= maxZ {
        if n != a && n != c && pointInTriangle(a, ear, c, n) && area(nodes[n].previous, n, nodes[n].next) >= 0 {
          return false
        }
        n = nodes[n].nextZ
      }
      return true
    }

    func pointInTriangle(_ a: Int, _ b: Int, _ c: Int, _ p: Int) -> Bool {
      pointInTriangle(nodes[a].x, nodes[a].y, nodes[b].x, nodes[b].y, nodes[c].x, nodes[c].y, nodes[p].x, nodes[p].y)
    }

    func pointInTriangle(
      _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double, _ px: Double, _ py: Double
    ) -> Bool {
      (cx - px) * (ay - py) >= (ax - px) * (cy - py) && (ax - px) * (by - py) >= (bx - px) * (ay - py)
        && (bx - px) * (cy - py) >= (cx - px) * (by - py)
    }

    /// Removes tiny self-intersections (a-b-c-d where a-b crosses c-d) by cutting a triangle.
    mutating func cureLocalIntersections(_ start: Int) -> Int {
      var start = start
      var p = start
      repeat {
        let a = nodes[p].previous
        let b = nodes[nodes[p].next].next
        if !equals(a, b) && intersects(a, p, nodes[p].next, b) && locallyInside(a, b) && locallyInside(b, a) {
          triangles += [nodes[a].index, nodes[p].index, nodes[b].index]
          remove(nodes[p].next)
          remove(p)
          p = b
          start = b
        }
        p = nodes[p].next
      } while p != start
      return filterPoints(p)
    }

    /// Splits the ring along a valid diagonal and triangulates both halves.
    mutating func splitEarcut(_ start: Int) {
      var a = start
      repeat {
        var b = nodes[nodes[a].next].next
        while b != nodes[a].previous {
          if nodes[a].index != nodes[b].index && isValidDiagonal(a, b) {
            var c = splitPolygon(a, b)
            a = filterPoints(a, nodes[a].next)
            c = filterPoints(c, nodes[c].next)
            earcutLinked(a, pass: 0)
            earcutLinked(c, pass: 0)
            return
          }
          b = nodes[b].next
        }
        a = nodes[a].next
      } while a != start
    }
  }
}
