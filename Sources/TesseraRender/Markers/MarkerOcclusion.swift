import TesseraNumbers

/// Which markers, and which part of each, can be seen: markers are tested front to back against
/// a bitmap of the screen pixels already covered by opaque icon pixels in front of them; one
/// whose pixels are all covered is skipped, and one partly covered is drawn only over the
/// bounding box of its uncovered pixels. Dense marker sets (thousands stacked on a city) then
/// blend a small fraction of the pixels they would, which is where llvmpipe's time went.
///
/// The markers tested are the unrotated billboards at their icon's own pixel density: their
/// pixels are placed by this test and drawn exactly there, so icon pixels and screen pixels
/// match one to one and the masks are exact. Rotated, flat and animated markers occlude
/// nothing and are culled only when their whole bounding box is covered.
struct MarkerOcclusion {
  /// Bit masks of one icon: rows of 64-bit words, bit i of word k = pixel 64·k + i.
  struct Masks {
    /// Pixels drawn (alpha > 0).
    let drawn: [[UInt64]]
    /// Fully opaque pixels (alpha 255).
    let opaque: [[UInt64]]
    let width: Int
    let height: Int

    init(alpha: [UInt8], width: Int, height: Int) {
      self.width = width
      self.height = height
      let words = (width + 63) / 64
      var drawn: [[UInt64]] = []
      var opaque: [[UInt64]] = []
      for y in 0..<height {
        var drawnRow = [UInt64](repeating: 0, count: words)
        var opaqueRow = [UInt64](repeating: 0, count: words)
        for x in 0..<width {
          let value = alpha[y * width + x]
          if value > 0 { drawnRow[x >> 6] |= 1 << UInt64(x & 63) }
          if value == 255 { opaqueRow[x >> 6] |= 1 << UInt64(x & 63) }
        }
        drawn.append(drawnRow)
        opaque.append(opaqueRow)
      }
      self.drawn = drawn
      self.opaque = opaque
    }
  }

  /// The screen: one bit per pixel, set where something opaque is in front.
  private var bits: [UInt64]
  let width: Int
  let height: Int
  private let wordsPerRow: Int

  /// An empty screen of `width` × `height` pixels.
  init(width: Int, height: Int) {
    self.width = width
    self.height = height
    wordsPerRow = (width + 63) / 64
    bits = [UInt64](repeating: 0, count: wordsPerRow * height)
  }

  /// The rows (screen y) of `mask`'s pixels placed with its origin at (x, y) that are on
  /// screen and not yet covered, each with the first and last such pixel's x; empty when all
  /// are covered.
  func exposedRows(_ mask: [[UInt64]], x: Int, y: Int) -> [(y: Int, minX: Int, maxX: Int)] {
    var rows: [(y: Int, minX: Int, maxX: Int)] = []
    for (row, words) in mask.enumerated() {
      let screenY = y + row
      guard screenY >= 0, screenY < height else { continue }
      var span: (Int, Int)?
      for (index, word) in words.enumerated() where word != 0 {
        guard let (low, high) = uncoveredRange(word, atX: x + index * 64, row: screenY) else { continue }
        span = span.map { (min($0.0, low), max($0.1, high)) } ?? (low, high)
      }
      if let span { rows.append((screenY, span.0, span.1)) }
    }
    return rows
  }

  /// Rectangles (screen pixels, inclusive) covering `rows` with as little area as possible,
  /// counting `instanceCost` pixels for each rectangle (what one more instance costs to draw):
  /// consecutive rows are grouped into bands by dynamic programming.
  static func bands(_ rows: [(y: Int, minX: Int, maxX: Int)], instanceCost: Int = 140) -> [(
    minX: Int, minY: Int, maxX: Int, maxY: Int
  )] {
    let count = rows.count
    guard count > 0 else { return [] }
    // best[i]: cost of covering rows 0..<i; split[i]: where the last band starts.
    var best = [Int](repeating: Int.max, count: count + 1)
    var split = [Int](repeating: 0, count: count + 1)
    best[0] = 0
    for end in 1...count {
      var minX = Int.max
      var maxX = Int.min
      for start in stride(from: end - 1, through: 0, by: -1) {
        minX = min(minX, rows[start].minX)
        maxX = max(maxX, rows[start].maxX)
        // The rasterizer shades 4 × 4 pixel blocks: count the blocks a band touches.
        let blockRows = (rows[end - 1].y >> 2) - (rows[start].y >> 2) + 1
        let blockColumns = (maxX >> 2) - (minX >> 2) + 1
        let area = blockRows * blockColumns * 16
        let cost = best[start] + area + instanceCost
        if cost < best[end] {
          best[end] = cost
          split[end] = start
        }
      }
    }
    var result: [(minX: Int, minY: Int, maxX: Int, maxY: Int)] = []
    var end = count
    while end > 0 {
      let start = split[end]
      let slice = rows[start..<end]
      result.append((slice.map(\.minX).min()!, rows[start].y, slice.map(\.maxX).max()!, rows[end - 1].y))
      end = start
    }
    return result.reversed()
  }

  /// The first and last uncovered pixel of row `row` between `minX` and `maxX` (clipped to the
  /// screen); nil when all are covered.
  func uncoveredSpan(minX: Int, maxX: Int, row: Int) -> (Int, Int)? {
    guard row >= 0, row < height else { return nil }
    let x0 = max(minX, 0)
    let x1 = min(maxX, width - 1)
    guard x0 <= x1 else { return nil }
    var span: (Int, Int)?
    var x = x0
    while x <= x1 {
      let count = min(64, x1 - x + 1)
      let word: UInt64 = count == 64 ? ~0 : (1 << UInt64(count)) - 1
      if let (low, high) = uncoveredRange(word, atX: x, row: row) {
        span = span.map { (min($0.0, low), max($0.1, high)) } ?? (low, high)
      }
      x += count
    }
    return span
  }

  /// Whether every pixel of a rectangle (clipped to the screen) is covered.
  func isCovered(minX: Int, minY: Int, maxX: Int, maxY: Int) -> Bool {
    let x0 = max(minX, 0)
    let y0 = max(minY, 0)
    let x1 = min(maxX, width - 1)
    let y1 = min(maxY, height - 1)
    guard x0 <= x1, y0 <= y1 else { return true }
    for y in y0...y1 {
      var x = x0
      while x <= x1 {
        let count = min(64, x1 - x + 1)
        let word: UInt64 = count == 64 ? ~0 : (1 << UInt64(count)) - 1
        if uncovered(word, atX: x, row: y) { return false }
        x += count
      }
    }
    return true
  }

  /// Marks `mask`'s pixels placed at (x, y) as covered.
  mutating func cover(_ mask: [[UInt64]], x: Int, y: Int) {
    for (row, words) in mask.enumerated() {
      let screenY = y + row
      guard screenY >= 0, screenY < height else { continue }
      for (index, word) in words.enumerated() where word != 0 {
        set(word, atX: x + index * 64, row: screenY)
      }
    }
  }

  /// The first and last screen x of `word`'s bits placed at `startX` in `row` that are on
  /// screen and not covered.
  private func uncoveredRange(_ word: UInt64, atX startX: Int, row: Int) -> (Int, Int)? {
    var bitsWord = word
    var x = startX
    if x < 0 {
      guard x > -64 else { return nil }
      bitsWord >>= UInt64(-x)
      x = 0
    }
    guard x < width, bitsWord != 0 else { return nil }
    let available = width - x
    if available < 64 { bitsWord &= (1 << UInt64(available)) - 1 }
    let base = row * wordsPerRow
    let wordIndex = x >> 6
    let shift = UInt64(x & 63)
    var low: Int?
    var high: Int?
    let lowBits = (bitsWord << shift) & ~bits[base + wordIndex]
    if lowBits != 0 {
      low = wordIndex * 64 + lowBits.trailingZeroBitCount
      high = wordIndex * 64 + 63 - lowBits.leadingZeroBitCount
    }
    if shift > 0, wordIndex + 1 < wordsPerRow {
      let highBits = (bitsWord >> (64 - shift)) & ~bits[base + wordIndex + 1]
      if highBits != 0 {
        if low == nil { low = (wordIndex + 1) * 64 + highBits.trailingZeroBitCount }
        high = (wordIndex + 1) * 64 + 63 - highBits.leadingZeroBitCount
      }
    }
    guard let low, let high else { return nil }
    return (low, high)
  }

  /// `word`'s bits placed at screen x `startX` in `row`, clipped: any of them not covered?
  private func uncovered(_ word: UInt64, atX startX: Int, row: Int) -> Bool {
    var bitsWord = word
    var x = startX
    if x < 0 {
      guard x > -64 else { return false }
      bitsWord >>= UInt64(-x)
      x = 0
    }
    guard x < width, bitsWord != 0 else { return false }
    // Pixels past the right edge do not count.
    let available = width - x
    if available < 64 { bitsWord &= (1 << UInt64(available)) - 1 }
    let base = row * wordsPerRow
    let wordIndex = x >> 6
    let shift = UInt64(x & 63)
    let low = bitsWord << shift
    if low & ~bits[base + wordIndex] != 0 { return true }
    if shift > 0, wordIndex + 1 < wordsPerRow {
      let high = bitsWord >> (64 - shift)
      if high & ~bits[base + wordIndex + 1] != 0 { return true }
    }
    return false
  }

  private mutating func set(_ word: UInt64, atX startX: Int, row: Int) {
    var bitsWord = word
    var x = startX
    if x < 0 {
      guard x > -64 else { return }
      bitsWord >>= UInt64(-x)
      x = 0
    }
    guard x < width, bitsWord != 0 else { return }
    let available = width - x
    if available < 64 { bitsWord &= (1 << UInt64(available)) - 1 }
    let base = row * wordsPerRow
    let wordIndex = x >> 6
    let shift = UInt64(x & 63)
    bits[base + wordIndex] |= bitsWord << shift
    if shift > 0, wordIndex + 1 < wordsPerRow { bits[base + wordIndex + 1] |= bitsWord >> (64 - shift) }
  }
}
