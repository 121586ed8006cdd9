/// Boxes of placed labels in screen points, bucketed in a uniform grid so that a new box is
/// tested only against boxes near it. Covers the view and a margin around it; boxes wholly
/// outside are reported as off screen (MapLibre does not place them).
struct CollisionGrid {
  struct Box {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    func overlaps(_ other: Box) -> Bool {
      minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
  }

  /// Points beyond the view's edges labels may collide in.
  static let margin = 100.0
  let cellSize = 50.0
  let width: Double
  let height: Double
  private let columns: Int
  private let rows: Int
  private var cells: [[Int32]]
  private var boxes: [Box] = []

  init(width: Double, height: Double) {
    self.width = width
    self.height = height
    columns = max(1, Int(((width + 2 * CollisionGrid.margin) / cellSize).rounded(.up)))
    rows = max(1, Int(((height + 2 * CollisionGrid.margin) / cellSize).rounded(.up)))
    cells = [[Int32]](repeating: [], count: columns * rows)
  }

  /// Whether `box` lies wholly outside the view and its margin.
  func isOffscreen(_ box: Box) -> Bool {
    box.maxX < -CollisionGrid.margin || box.minX > width + CollisionGrid.margin || box.maxY < -CollisionGrid.margin
      || box.minY > height + CollisionGrid.margin
  }

  /// Whether `box` lies wholly inside the view (for `symbol-avoid-edges`).
  func isInsideView(_ box: Box) -> Bool {
    box.minX >= 0 && box.minY >= 0 && box.maxX <= width && box.maxY <= height
  }

  private func cellRange(_ box: Box) -> (ClosedRange<Int>, ClosedRange<Int>) {
    func clamp(_ value: Double, _ count: Int) -> Int {
      min(max(Int(((value + CollisionGrid.margin) / cellSize).rounded(.down)), 0), count - 1)
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
