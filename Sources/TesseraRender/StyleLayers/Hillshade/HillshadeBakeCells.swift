import TesseraGeo
import TesseraNumbers

/// The cells of a DEM tile's slope texture that a frame's bake of its shading draws: the set
/// cells (``TextureOccupancy``) that the render tiles drawing the texture show in the view, and
/// the set cells around them, whose texels a linearly filtered sample near a shown cell's edge
/// reads. Shading those gives every pixel of the frame what shading all set cells gives, for a
/// part of the work when the view shows part of the tile (an overzoomed DEM tile, a small view).
struct HillshadeBakeCells {
  let occupancy: TextureOccupancy
  /// Row-major over the occupancy's cells: shown by some render tile so far.
  private var shown: [Bool]

  init(_ occupancy: TextureOccupancy) {
    self.occupancy = occupancy
    shown = [Bool](repeating: false, count: occupancy.columns * occupancy.rows)
  }

  /// How far beyond the view (clip-space units) a cell still counts as shown: far more than
  /// any rounding of the projection, so that a cell with a pixel or sample in view is never
  /// missed.
  static let viewMargin = 1.0 / 64

  /// Marks the set cells inside `textureRect` (the part of the texture a render tile draws,
  /// texture units) that `matrix` (the render tile's unit square, y down, to clip space) puts
  /// at least partly in the view; returns whether any was.
  @discardableResult
  mutating func addShown(textureRect: (x: Double, y: Double, width: Double, height: Double), matrix: Mat4) -> Bool {
    let grid = occupancy
    guard textureRect.width > 0, textureRect.height > 0 else { return false }
    /// A cell edge along an axis as a position across the render tile, clamped to it.
    func across(_ edge: Int, texels: Int, origin: Double, size: Double) -> Double {
      min(max((Double(min(edge * grid.cellSize, texels)) / Double(texels) - origin) / size, 0), 1)
    }
    var any = false
    for row in 0..<grid.rows {
      let top = across(row, texels: grid.height, origin: textureRect.y, size: textureRect.height)
      let bottom = across(row + 1, texels: grid.height, origin: textureRect.y, size: textureRect.height)
      guard bottom > top else { continue }
      for column in 0..<grid.columns where grid.isSet(row * grid.columns + column) {
        let left = across(column, texels: grid.width, origin: textureRect.x, size: textureRect.width)
        let right = across(column + 1, texels: grid.width, origin: textureRect.x, size: textureRect.width)
        guard right > left,
          Self.isInView((left, top, right, bottom), matrix: matrix)
        else { continue }
        shown[row * grid.columns + column] = true
        any = true
      }
    }
    return any
  }

  /// Whether the rectangle (min x, min y, max x, max y of a unit square) that `matrix` takes
  /// to clip space may cover part of the view: its corners' box meets the view, or a corner
  /// lies at or behind the eye (then it is taken as shown).
  static func isInView(_ rect: (Double, Double, Double, Double), matrix: Mat4) -> Bool {
    var low = (Double.infinity, Double.infinity)
    var high = (-Double.infinity, -Double.infinity)
    for (x, y) in [(rect.0, rect.1), (rect.2, rect.1), (rect.0, rect.3), (rect.2, rect.3)] {
      let (cx, cy, _, cw) = matrix.transform(x, y, 0)
      guard cw > 1e-9 else { return true }
      low = (min(low.0, cx / cw), min(low.1, cy / cw))
      high = (max(high.0, cx / cw), max(high.1, cy / cw))
    }
    let reach = 1 + viewMargin
    return high.0 >= -reach && low.0 <= reach && high.1 >= -reach && low.1 <= reach
  }

  /// Marks every cell shown: the bake then shades all set cells.
  mutating func showAll() {
    shown = [Bool](repeating: true, count: shown.count)
  }

  /// Whether no render tile showed any cell.
  var isEmpty: Bool { !shown.contains(true) }

  /// The cells to shade: the set cells shown and the set cells next to one (the eight around).
  var baked: TextureOccupancy {
    let columns = occupancy.columns
    let rows = occupancy.rows
    var keep = [Bool](repeating: false, count: shown.count)
    for row in 0..<rows {
      for column in 0..<columns where shown[row * columns + column] {
        for y in max(row - 1, 0)...min(row + 1, rows - 1) {
          for x in max(column - 1, 0)...min(column + 1, columns - 1) { keep[y * columns + x] = true }
        }
      }
    }
    return occupancy.keeping(keep)
  }
}
