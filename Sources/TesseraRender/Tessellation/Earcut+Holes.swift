import TesseraNumbers

/// Holes joined to the outer ring, and the diagonal and intersection tests the splitting
/// passes use.
extension Earcut.Builder {
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
    nodes.append(Earcut.Node(index: nodes[a].index, x: nodes[a].x, y: nodes[a].y))
    let b2 = nodes.count
    nodes.append(Earcut.Node(index: nodes[b].index, x: nodes[b].x, y: nodes[b].y))
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
}
