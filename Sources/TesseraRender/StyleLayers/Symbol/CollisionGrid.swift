import TesseraNumbers

/// Boxes (and the circles of labels along lines) of placed labels in screen points, bucketed
/// in a uniform grid so that a new shape is tested only against shapes near it. Covers the
/// view and a margin around it; shapes wholly outside are reported as off screen (MapLibre
/// does not place them).
struct CollisionGrid {
  /// A box, or a circle when ``radius`` is set (the box then bounds it).
  struct Box {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double
    var radius: Double? = nil

    /// A circle of `radius` points around (`x`, `y`).
    static func circle(x: Double, y: Double, radius: Double) -> Box {
      Box(minX: x - radius, minY: y - radius, maxX: x + radius, maxY: y + radius, radius: radius)
    }

    /// Whether the shapes meet, as MapLibre tests them: boxes and a box and a circle also
    /// when they only touch, two circles only when they overlap.
    func overlaps(_ other: Box) -> Bool {
      guard minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY else {
        return false
      }
      switch (radius, other.radius) {
      case (nil, nil): return true
      case (let r?, let s?):
        let dx = (minX + maxX) / 2 - (other.minX + other.maxX) / 2
        let dy = (minY + maxY) / 2 - (other.minY + other.maxY) / 2
        return dx * dx + dy * dy < (r + s) * (r + s)
      case (let r?, nil): return other.meets(x: (minX + maxX) / 2, y: (minY + maxY) / 2, radius: r)
      case (nil, let s?): return meets(x: (other.minX + other.maxX) / 2, y: (other.minY + other.maxY) / 2, radius: s)
      }
    }

    /// Whether the box meets the circle (its nearest point lies within the radius or on the
    /// circle).
    private func meets(x: Double, y: Double, radius: Double) -> Bool {
      let dx = x - min(max(x, minX), maxX)
      let dy = y - min(max(y, minY), maxY)
      return dx * dx + dy * dy <= radius * radius
    }
  }

  /// Points beyond the view's edges labels may collide in, by default (MapLibre's viewport
  /// padding).
  static let defaultMargin = 100.0

  /// The margin of a frame's grid: ``defaultMargin``, twice that on a tilted view (as
  /// MapLibre Native pads a pitched viewport), so labels just beyond the view's edges take
  /// their room there.
  static func margin(tilted: Bool) -> Double { tilted ? 2 * defaultMargin : defaultMargin }
  /// Points beyond the view's edges labels may collide in.
  let margin: Double
  let cellSize = 50.0
  let width: Double
  let height: Double
  private let columns: Int
  private let rows: Int
  private var cells: [[Int32]]
  private var boxes: [Box] = []

  init(width: Double, height: Double, margin: Double = CollisionGrid.defaultMargin) {
    self.width = width
    self.height = height
    self.margin = margin
    columns = max(1, Int(clamping: ((width + 2 * margin) / cellSize).rounded(.up)))
    rows = max(1, Int(clamping: ((height + 2 * margin) / cellSize).rounded(.up)))
    cells = [[Int32]](repeating: [], count: columns * rows)
  }

  /// Whether `box` lies wholly outside the view and its margin.
  func isOffscreen(_ box: Box) -> Bool {
    box.maxX < -margin || box.minX > width + margin || box.maxY < -margin || box.minY > height + margin
  }

  /// Whether `box` lies wholly inside the view (for `symbol-avoid-edges`).
  func isInsideView(_ box: Box) -> Bool {
    box.minX >= 0 && box.minY >= 0 && box.maxX <= width && box.maxY <= height
  }

  private func cellRange(_ box: Box) -> (ClosedRange<Int>, ClosedRange<Int>) {
    func clamp(_ value: Double, _ count: Int) -> Int {
      min(max(Int(clamping: ((value + margin) / cellSize).rounded(.down)), 0), count - 1)
    }
    return (
      clamp(box.minX, columns)...clamp(box.maxX, columns), clamp(box.minY, rows)...clamp(box.maxY, rows)
    )
  }

  /// Whether `box` overlaps a box already inserted.
  func collides(_ box: Box) -> Bool {
    let (xs, ys) = cellRange(box)
    for y in ys {
      for x in xs {
        for index in cells[y * columns + x] where boxes[Int(index)].overlaps(box) { return true }
      }
    }
    return false
  }

  mutating func insert(_ box: Box) {
    let index = Int32(boxes.count)
    boxes.append(box)
    let (xs, ys) = cellRange(box)
    for y in ys { for x in xs { cells[y * columns + x].append(index) } }
  }
}
