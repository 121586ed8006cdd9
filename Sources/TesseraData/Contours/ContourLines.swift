import TesseraNumbers

/// Isolines of a square grid of heights (marching squares): for each level, the lines where
/// the height crosses it, joined into polylines (open ones end on the grid's border, closed
/// ones come back to their start), in grid units (0…size across), then smoothed.
///
/// Samples on the border of one grid lie on the border of the next one's when both grids
/// sample the same field there; the crossings on a shared border are then the same points, so
/// lines of neighbouring tiles meet.
package enum ContourLines {
  /// One isoline.
  package struct Line: Sendable, Equatable {
    /// Height, metres.
    package var level: Double
    /// Points in grid units (x right, y down).
    package var points: [(x: Double, y: Double)]
    /// Whether the line comes back to its first point (the last point repeats it).
    package var isClosed: Bool

    package static func == (a: Line, b: Line) -> Bool {
      a.level == b.level && a.isClosed == b.isClosed && a.points.count == b.points.count
        && zip(a.points, b.points).allSatisfy { $0.x == $1.x && $0.y == $1.y }
    }
  }

  /// The isolines of `heights` (`(size + 1)²` samples, rows from the top; NaN where unknown:
  /// cells touching one have no lines) at every multiple of `interval` above 0 metres.
  package static func lines(heights: [Float], size: Int, interval: Double) -> [Line] {
    precondition(heights.count == (size + 1) * (size + 1) && interval > 0, "a (size+1)² grid and an interval")
    let stride = size + 1
    // Segments per level, each between two cell edges (keys: 2·(row·stride + column) for the
    // edge going right from a sample, + 1 for the edge going down).
    var segments: [Int: [(Int, Int)]] = [:]
    var crossings: [Int: [Int: (x: Double, y: Double)]] = [:]
    for row in 0..<size {
      for column in 0..<size {
        let topLeft = Double(heights[row * stride + column])
        let topRight = Double(heights[row * stride + column + 1])
        let bottomRight = Double(heights[(row + 1) * stride + column + 1])
        let bottomLeft = Double(heights[(row + 1) * stride + column])
        let corners = [topLeft, topRight, bottomRight, bottomLeft]
        guard corners.allSatisfy({ $0.isFinite }) else { continue }
        let low = corners.min()!
        let high = corners.max()!
        // Levels L with low < L ≤ high cross the cell (a corner ≥ L is above it).
        var step = max((low / interval).rounded(.down) + 1, 1)
        while step * interval <= high {
          let level = step * interval
          let key = Int(clamping: step)
          step += 1
          let index =
            (topLeft >= level ? 8 : 0) | (topRight >= level ? 4 : 0) | (bottomRight >= level ? 2 : 0)
            | (bottomLeft >= level ? 1 : 0)
          let top = 2 * (row * stride + column)
          let bottom = 2 * ((row + 1) * stride + column)
          let left = 2 * (row * stride + column) + 1
          let right = 2 * (row * stride + column + 1) + 1
          let centre = (topLeft + topRight + bottomRight + bottomLeft) / 4
          let pairs: [(Int, Int)]
          switch index {
          case 1, 14: pairs = [(left, bottom)]
          case 2, 13: pairs = [(bottom, right)]
          case 3, 12: pairs = [(left, right)]
          case 4, 11: pairs = [(top, right)]
          case 6, 9: pairs = [(top, bottom)]
          case 7, 8: pairs = [(left, top)]
          case 5: pairs = centre >= level ? [(left, top), (bottom, right)] : [(top, right), (left, bottom)]
          case 10: pairs = centre >= level ? [(top, right), (left, bottom)] : [(left, top), (bottom, right)]
          default: pairs = []
          }
          guard !pairs.isEmpty else { continue }
          func point(_ edge: Int) -> (x: Double, y: Double) {
            let sample = edge / 2
            let (r, c) = (sample / stride, sample % stride)
            let a = Double(heights[sample])
            let b = Double(heights[edge % 2 == 0 ? sample + 1 : sample + stride])
            let t = b == a ? 0.5 : min(max((level - a) / (b - a), 0), 1)
            return edge % 2 == 0 ? (Double(c) + t, Double(r)) : (Double(c), Double(r) + t)
          }
          for (a, b) in pairs {
            segments[key, default: []].append((a, b))
            if crossings[key]?[a] == nil { crossings[key, default: [:]][a] = point(a) }
            if crossings[key]?[b] == nil { crossings[key, default: [:]][b] = point(b) }
          }
        }
      }
    }
    var lines: [Line] = []
    for key in segments.keys.sorted() {
      let level = Double(key) * interval
      for chain in joined(segments[key]!) {
        let points = chain.map { crossings[key]![$0]! }
        lines.append(Line(level: level, points: points, isClosed: chain.count > 2 && chain.first == chain.last))
      }
    }
    return lines
  }

  /// Segments (pairs of edge keys) joined into chains of edge keys: open chains first from
  /// their ends, then closed ones (their first key repeated at the end). Deterministic: chains
  /// start from the smallest free key.
  static func joined(_ segments: [(Int, Int)]) -> [[Int]] {
    var neighbours: [Int: [Int]] = [:]
    for (a, b) in segments {
      neighbours[a, default: []].append(b)
      neighbours[b, default: []].append(a)
    }
    var used = Set<Int64>()
    func edgeKey(_ a: Int, _ b: Int) -> Int64 { Int64(min(a, b)) << 32 | Int64(max(a, b)) }
    var chains: [[Int]] = []
    func walk(from start: Int) -> [Int] {
      var chain = [start]
      var current = start
      while let next = neighbours[current]?.first(where: { !used.contains(edgeKey(current, $0)) }) {
        used.insert(edgeKey(current, next))
        chain.append(next)
        current = next
        if next == start { break }
      }
      return chain
    }
    let keys = neighbours.keys.sorted()
    for key in keys where neighbours[key]!.count == 1 {
      if neighbours[key]!.allSatisfy({ used.contains(edgeKey(key, $0)) }) { continue }
      chains.append(walk(from: key))
    }
    for key in keys {
      while neighbours[key]!.contains(where: { !used.contains(edgeKey(key, $0)) }) {
        chains.append(walk(from: key))
      }
    }
    return chains.filter { $0.count >= 2 }
  }

  /// `line` with the points that stray less than `tolerance` grid units from the line between
  /// their neighbours left out (Douglas–Peucker): the cells' stair steps go, the shape stays.
  /// The ends stay.
  package static func simplified(_ line: Line, tolerance: Double = 0.4) -> Line {
    let points = line.points
    guard points.count > 2 else { return line }
    var keep = [Bool](repeating: false, count: points.count)
    keep[0] = true
    keep[points.count - 1] = true
    var pending = [(0, points.count - 1)]
    while let (first, last) = pending.popLast() {
      guard last > first + 1 else { continue }
      let (a, b) = (points[first], points[last])
      let (dx, dy) = (b.x - a.x, b.y - a.y)
      let length = (dx * dx + dy * dy).squareRoot()
      var farthest = first
      var distance = 0.0
      for index in (first + 1)..<last {
        let p = points[index]
        let d =
          length > 0
          ? abs(dx * (a.y - p.y) - dy * (a.x - p.x)) / length
          : ((p.x - a.x) * (p.x - a.x) + (p.y - a.y) * (p.y - a.y)).squareRoot()
        if d > distance { (farthest, distance) = (index, d) }
      }
      if distance > tolerance {
        keep[farthest] = true
        pending.append((first, farthest))
        pending.append((farthest, last))
      }
    }
    var simplified = line
    simplified.points = points.indices.filter { keep[$0] }.map { points[$0] }
    return simplified
  }

  /// `line` simplified, then smoothed by Chaikin's corner cutting, `passes` times: corners
  /// become curves; the ends of an open line stay where they are (so lines still meet across
  /// tile borders).
  package static func smoothed(_ line: Line, passes: Int = 3) -> Line {
    var points = simplified(line).points
    guard points.count >= 3 else { return line }
    for _ in 0..<passes {
      var next: [(x: Double, y: Double)] = []
      next.reserveCapacity(points.count * 2)
      if !line.isClosed { next.append(points[0]) }
      for index in 0..<(points.count - 1) {
        let (a, b) = (points[index], points[index + 1])
        next.append((0.75 * a.x + 0.25 * b.x, 0.75 * a.y + 0.25 * b.y))
        next.append((0.25 * a.x + 0.75 * b.x, 0.25 * a.y + 0.75 * b.y))
      }
      if line.isClosed {
        next.append(next[0])
      } else {
        next.append(points[points.count - 1])
      }
      points = next
    }
    var smoothed = line
    smoothed.points = points
    return smoothed
  }
}
