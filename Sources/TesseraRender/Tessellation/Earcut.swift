/// Polygon triangulation by ear clipping, in the manner of Mapbox's earcut: the outer ring and
/// its holes become one doubly linked ring (each hole joined to the outer ring by a bridge to
/// a visible vertex), then "ears" (convex vertices whose triangle holds no other vertex) are
/// cut off until three vertices remain. Large polygons index vertices by z-order curve so the
/// "no other vertex inside" test only looks near the ear. Degenerate input (self-touching rings,
/// collinear runs) is handled by falling back to filtering and splitting passes.
public enum Earcut {
  /// Triangle indices into `points` (flattened rings: the outer ring first, then each hole;
  /// `holeStarts` are the indices where holes begin). Rings may be closed or open.
  public static func triangulate(_ points: [(Double, Double)], holeStarts: [Int] = []) -> [Int] {
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

    // MARK: Holes

    mutating func eliminateHoles(_ holeStarts: [Int], outer: Int) -> Int {
      var queue: [Int] = []
      for (number, start) in holeStarts.enumerated() {
        let end = number + 1 < holeStarts.count ? holeStarts[number + 1] : points.count
        guard let list = linkedRing(start, end, clockwise: false) else { continue }
        if list == nodes[list].next { nodes[list].steiner = true }
        queue.append(leftmost(list))
      }
      queue.sort { nodes[$0].x < nodes[$1].x }
      var outer = outer
      for hole in queue {
        outer = eliminateHole(hole, outer)
      }
      return outer
    }

    mutating func eliminateHole(_ hole: Int, _ outer: Int) -> Int {
      guard let bridge = findHoleBridge(hole, outer) else { return outer }
      let reverse = splitPolygon(bridge, hole)
      _ = filterPoints(reverse, nodes[reverse].next)
      return filterPoints(bridge, nodes[bridge].next)
    }

    /// A vertex of the outer ring visible from the hole's leftmost vertex (David Eberly's method).
    func findHoleBridge(_ hole: Int, _ outer: Int) -> Int? {
      var p = outer
      let hx = nodes[hole].x
      let hy = nodes[hole].y
      var qx = -Double.infinity
      var m: Int?
      repeat {
        let next = nodes[p].next
        if hy <= nodes[p].y && hy >= nodes[next].y && nodes[next].y != nodes[p].y {
          let x = nodes[p].x + (hy - nodes[p].y) * (nodes[next].x - nodes[p].x) / (nodes[next].y - nodes[p].y)
          if x <= hx && x > qx {
            qx = x
            m = nodes[p].x < nodes[next].x ? p : next
            if x == hx { return m }
          }
        }
        p = next
      } while p != outer
      guard var candidate = m else { return nil }
      let stop = candidate
      let mx = nodes[candidate].x
      let my = nodes[candidate].y
      var tanMin = Double.infinity
      p = candidate
      repeat {
        if hx >= nodes[p].x && nodes[p].x >= mx && hx != nodes[p].x
          && pointInTriangle(hy < my ? hx : qx, hy, mx, my, hy < my ? qx : hx, hy, nodes[p].x, nodes[p].y)
        {
          let tangent = abs(hy - nodes[p].y) / (hx - nodes[p].x)
          if locallyInside(p, hole)
            && (tangent < tanMin
              || (tangent == tanMin
                && (nodes[p].x > nodes[candidate].x
                  || (nodes[p].x == nodes[candidate].x && sectorContainsSector(candidate, p)))))
          {
            candidate = p
            tanMin = tangent
          }
        }
        p = nodes[p].next
      } while p != stop
      return candidate
    }

    func sectorContainsSector(_ m: Int, _ p: Int) -> Bool {
      area(nodes[m].previous, m, nodes[p].previous) < 0 && area(nodes[p].next, m, nodes[m].next) < 0
    }

    func leftmost(_ start: Int) -> Int {
      var p = start
      var leftmost = start
      repeat {
        if nodes[p].x < nodes[leftmost].x || (nodes[p].x == nodes[leftmost].x && nodes[p].y < nodes[leftmost].y) {
          leftmost = p
        }
        p = nodes[p].next
      } while p != start
      return leftmost
    }

    /// Joins two vertices with a diagonal, splitting the ring in two; returns the second ring.
    mutating func splitPolygon(_ a: Int, _ b: Int) -> Int {
      let a2 = nodes.count
      nodes.append(Node(index: nodes[a].index, x: nodes[a].x, y: nodes[a].y))
      let b2 = nodes.count
      nodes.append(Node(index: nodes[b].index, x: nodes[b].x, y: nodes[b].y))
      let an = nodes[a].next
      let bp = nodes[b].previous
      nodes[a].next = b
      nodes[b].previous = a
      nodes[a2].next = an
      nodes[an].previous = a2
      nodes[b2].next = a2
      nodes[a2].previous = b2
      nodes[bp].next = b2
      nodes[b2].previous = bp
      return b2
    }

    // MARK: Geometry tests

    func isValidDiagonal(_ a: Int, _ b: Int) -> Bool {
      let an = nodes[a].next
      let ap = nodes[a].previous
      let bn = nodes[b].next
      let bp = nodes[b].previous
      return nodes[an].index != nodes[b].index && nodes[ap].index != nodes[b].index && !intersectsPolygon(a, b)
        && ((locallyInside(a, b) && locallyInside(b, a) && middleInside(a, b)
          && (area(ap, a, bp) != 0 || area(a, bp, b) != 0))
          || (equals(a, b) && area(ap, a, an) > 0 && area(bp, b, bn) > 0))
    }

    func intersects(_ p1: Int, _ q1: Int, _ p2: Int, _ q2: Int) -> Bool {
      let o1 = sign(area(p1, q1, p2))
      let o2 = sign(area(p1, q1, q2))
      let o3 = sign(area(p2, q2, p1))
      let o4 = sign(area(p2, q2, q1))
      if o1 != o2 && o3 != o4 { return true }
      if o1 == 0 && onSegment(p1, p2, q1) { return true }
      if o2 == 0 && onSegment(p1, q2, q1) { return true }
      if o3 == 0 && onSegment(p2, p1, q2) { return true }
      if o4 == 0 && onSegment(p2, q1, q2) { return true }
      return false
    }

    func onSegment(_ p: Int, _ q: Int, _ r: Int) -> Bool {
      nodes[q].x <= max(nodes[p].x, nodes[r].x) && nodes[q].x >= min(nodes[p].x, nodes[r].x)
        && nodes[q].y <= max(nodes[p].y, nodes[r].y) && nodes[q].y >= min(nodes[p].y, nodes[r].y)
    }

    func sign(_ value: Double) -> Int { value > 0 ? 1 : (value < 0 ? -1 : 0) }

    func intersectsPolygon(_ a: Int, _ b: Int) -> Bool {
      var p = a
      repeat {
        let next = nodes[p].next
        if nodes[p].index != nodes[a].index && nodes[next].index != nodes[a].index && nodes[p].index != nodes[b].index
          && nodes[next].index != nodes[b].index && intersects(p, next, a, b)
        {
          return true
        }
        p = next
      } while p != a
      return false
    }

    func locallyInside(_ a: Int, _ b: Int) -> Bool {
      let previous = nodes[a].previous
      let next = nodes[a].next
      return area(previous, a, next) < 0
        ? area(a, b, next) >= 0 && area(a, previous, b) >= 0
        : area(a, b, previous) < 0 || area(a, next, b) < 0
    }

    func middleInside(_ a: Int, _ b: Int) -> Bool {
      var p = a
      var inside = false
      let px = (nodes[a].x + nodes[b].x) / 2
      let py = (nodes[a].y + nodes[b].y) / 2
      repeat {
        let next = nodes[p].next
        if (nodes[p].y > py) != (nodes[next].y > py) && nodes[next].y != nodes[p].y
          && px < (nodes[next].x - nodes[p].x) * (py - nodes[p].y) / (nodes[next].y - nodes[p].y) + nodes[p].x
        {
          inside.toggle()
        }
        p = next
      } while p != a
      return inside
    }

    // MARK: Z-order index

    func zOrder(_ x: Double, _ y: Double) -> Int {
      var ix = Int((x - minX) * inverseSize) | 0
      var iy = Int((y - minY) * inverseSize) | 0
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
}

extension Earcut {
  /// How far a triangulation's area is from the polygon's, relative to the polygon's area (0 is
  /// exact): a check for tests.
  public static func deviation(_ points: [(Double, Double)], holeStarts: [Int], triangles: [Int]) -> Double {
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
