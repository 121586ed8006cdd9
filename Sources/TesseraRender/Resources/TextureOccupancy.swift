import TesseraNumbers

/// Which parts of a texture draw anything: a grid of square cells over the texture, each set
/// when a linearly filtered sample taken inside the cell may read a texel that is not blank
/// (the cell's own texels and those one beyond its edges). A draw of the texture that covers
/// only the set cells gives the same pixels as one over the whole texture, when blank texels
/// shade to nothing (hillshade's flat ground).
package struct TextureOccupancy: Sendable, Hashable {
  /// Texels per cell side.
  package let cellSize: Int
  /// The texture's size in texels.
  package let width: Int
  package let height: Int
  /// Cells across and down.
  package let columns: Int
  package let rows: Int
  /// Row-major, top row first.
  let cells: [Bool]

  /// The occupancy of a `width` × `height` texture whose texel (x, y) is blank when
  /// `isBlank(x, y)`, in cells of `cellSize` texels.
  package init(width: Int, height: Int, cellSize: Int, isBlank: (Int, Int) -> Bool) {
    precondition(width > 0 && height > 0 && cellSize > 0, "an occupancy needs a texture and a cell size")
    self.cellSize = cellSize
    self.width = width
    self.height = height
    columns = (width + cellSize - 1) / cellSize
    rows = (height + cellSize - 1) / cellSize
    // Texels that are not blank, then each cell tested over its sampling footprint.
    var filled = [Bool](repeating: false, count: width * height)
    for y in 0..<height {
      for x in 0..<width where !isBlank(x, y) { filled[y * width + x] = true }
    }
    var cells = [Bool](repeating: false, count: columns * rows)
    for row in 0..<rows {
      let y0 = max(row * cellSize - 1, 0)
      let y1 = min((row + 1) * cellSize, height - 1)
      for column in 0..<columns {
        let x0 = max(column * cellSize - 1, 0)
        let x1 = min((column + 1) * cellSize, width - 1)
        search: for y in y0...y1 {
          for x in x0...x1 where filled[y * width + x] {
            cells[row * columns + column] = true
            break search
          }
        }
      }
    }
    self.cells = cells
  }

  private init(cellSize: Int, width: Int, height: Int, columns: Int, rows: Int, cells: [Bool]) {
    self.cellSize = cellSize
    self.width = width
    self.height = height
    self.columns = columns
    self.rows = rows
    self.cells = cells
  }

  /// The same grid with only the set cells that `keep` (row-major, `columns` × `rows`) marks.
  func keeping(_ keep: [Bool]) -> TextureOccupancy {
    precondition(keep.count == cells.count, "a mask of another grid")
    return TextureOccupancy(
      cellSize: cellSize, width: width, height: height, columns: columns, rows: rows,
      cells: zip(cells, keep).map { $0 && $1 })
  }

  /// Whether cell `index` (row-major) is set.
  func isSet(_ index: Int) -> Bool { cells[index] }

  /// Whether no cell is set (the texture draws nothing).
  package var isEmpty: Bool { !cells.contains(true) }

  /// Whether every cell is set.
  package var isFull: Bool { !cells.contains(false) }

  /// Rectangles covering the set cells inside `rect` (a part of the texture: x, y, width and
  /// height in texture units, 0…1 across the texture), cut to `rect` and given as (minX, minY,
  /// maxX, maxY) in units of `rect` (0…1 across it): runs of set cells along a row, a run
  /// joined with the one of the row above that spans the same columns. The rectangles do not
  /// overlap, and an edge at `rect`'s edge is exactly 0 or 1.
  package func runs(in rect: (x: Double, y: Double, width: Double, height: Double)) -> [SIMD4<Float>] {
    guard rect.width > 0, rect.height > 0 else { return [] }
    /// A cell edge (in cells along an axis of `texels`) as a position across `rect`, clamped.
    func across(_ cellEdge: Int, texels: Int, origin: Double, size: Double) -> Float {
      let texture = Double(min(cellEdge * cellSize, texels)) / Double(texels)
      return Float(min(max((texture - origin) / size, 0), 1))
    }
    // The cells `rect` overlaps.
    let firstColumn = max(Int(clamping: rect.x * Double(width)) / cellSize, 0)
    let lastColumn = min(Int(clamping: ((rect.x + rect.width) * Double(width)).rounded(.up)) / cellSize, columns - 1)
    let firstRow = max(Int(clamping: rect.y * Double(height)) / cellSize, 0)
    let lastRow = min(Int(clamping: ((rect.y + rect.height) * Double(height)).rounded(.up)) / cellSize, rows - 1)
    guard firstColumn <= lastColumn, firstRow <= lastRow else { return [] }
    var runs: [SIMD4<Float>] = []
    // The previous row's runs: first and end column → index in `runs`.
    var above: [Int: (end: Int, index: Int)] = [:]
    for row in firstRow...lastRow {
      let minY = across(row, texels: height, origin: rect.y, size: rect.height)
      let maxY = across(row + 1, texels: height, origin: rect.y, size: rect.height)
      guard maxY > minY else { continue }
      var current: [Int: (end: Int, index: Int)] = [:]
      var column = firstColumn
      while column <= lastColumn {
        guard cells[row * columns + column] else {
          column += 1
          continue
        }
        let start = column
        while column <= lastColumn && cells[row * columns + column] { column += 1 }
        if let joined = above[start], joined.end == column {
          runs[joined.index].w = maxY
          current[start] = joined
          continue
        }
        let minX = across(start, texels: width, origin: rect.x, size: rect.width)
        let maxX = across(column, texels: width, origin: rect.x, size: rect.width)
        guard maxX > minX else { continue }
        current[start] = (column, runs.count)
        runs.append(SIMD4(minX, minY, maxX, maxY))
      }
      above = current
    }
    return runs
  }
}
