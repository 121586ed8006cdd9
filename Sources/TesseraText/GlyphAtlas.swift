import TesseraNumbers

/// A rectangle of an atlas texture, texels.
package struct AtlasRect: Sendable, Hashable {
  package let x: Int
  package let y: Int
  package let width: Int
  package let height: Int

  package init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}

/// Packs images into one texture in shelves (rows of similar height), each with a texel of
/// padding, and remembers which rows changed since the texture was last uploaded, so that
/// only new images are sent to the GPU. The texture is `width` texels wide and grows in
/// height (doubling) up to `maxHeight`.
package struct ShelfAtlas: Sendable {
  package let width: Int
  package private(set) var height: Int
  package let maxHeight: Int
  /// Bytes per texel (1 for distance fields, 4 for RGBA icons).
  package let bytesPerTexel: Int
  /// The texels, rows top first.
  package var pixels: [UInt8] { texels.isEmpty ? [UInt8](repeating: 0, count: width * height * bytesPerTexel) : texels }
  /// The texels once an image was placed; empty before (a map that never draws text never
  /// pays for the zeros).
  private var texels: [UInt8] = []

  /// Whether the atlas holds texels of its own (once an image was placed).
  var holdsTexels: Bool { !texels.isEmpty }
  /// Rows written since ``markUploaded()`` (empty when none).
  package private(set) var dirtyRows: Range<Int> = 0..<0
  /// Bumped when the texture's size changes (so it must be made anew).
  package private(set) var generation = 0

  private struct Shelf {
    let y: Int
    let height: Int
    var x: Int
  }
  private var shelves: [Shelf] = []
  private var nextShelfY = 0
  static let padding = 1

  package init(width: Int, height: Int, maxHeight: Int, bytesPerTexel: Int) {
    self.width = width
    self.height = height
    self.maxHeight = maxHeight
    self.bytesPerTexel = bytesPerTexel
  }

  /// Places an image of `imageWidth` × `imageHeight` texels (tightly packed rows) and returns
  /// where it lies; nil when the atlas is full.
  package mutating func insert(width imageWidth: Int, height imageHeight: Int, pixels image: [UInt8]) -> AtlasRect? {
    let paddedWidth = imageWidth + 2 * ShelfAtlas.padding
    let paddedHeight = imageHeight + 2 * ShelfAtlas.padding
    guard paddedWidth <= width else { return nil }
    var chosen: Int?
    for (index, shelf) in shelves.enumerated()
    where shelf.height >= paddedHeight && shelf.height <= paddedHeight + paddedHeight / 2 + 2
      && shelf.x + paddedWidth <= width
    {
      chosen = index
      break
    }
    if chosen == nil {
      // Shelves are a little taller than their first image, so similar ones share them.
      let shelfHeight = (paddedHeight + 3) & ~3
      while nextShelfY + shelfHeight > height {
        guard height * 2 <= maxHeight else { return nil }
        grow()
      }
      shelves.append(Shelf(y: nextShelfY, height: shelfHeight, x: 0))
      nextShelfY += shelfHeight
      chosen = shelves.count - 1
    }
    let shelf = shelves[chosen!]
    shelves[chosen!].x += paddedWidth
    let rect = AtlasRect(
      x: shelf.x + ShelfAtlas.padding, y: shelf.y + ShelfAtlas.padding, width: imageWidth, height: imageHeight)
    let rowBytes = imageWidth * bytesPerTexel
    if texels.isEmpty { texels = [UInt8](repeating: 0, count: width * height * bytesPerTexel) }
    for row in 0..<imageHeight {
      let to = ((rect.y + row) * width + rect.x) * bytesPerTexel
      texels.replaceSubrange(to..<to + rowBytes, with: image[row * rowBytes..<(row + 1) * rowBytes])
    }
    let rows = shelf.y..<(shelf.y + shelf.height)
    dirtyRows =
      dirtyRows.isEmpty ? rows : min(dirtyRows.lowerBound, rows.lowerBound)..<max(dirtyRows.upperBound, rows.upperBound)
    return rect
  }

  private mutating func grow() {
    height *= 2
    if !texels.isEmpty { texels += [UInt8](repeating: 0, count: texels.count) }
    generation += 1
    dirtyRows = 0..<height
  }

  /// Forgets the changes (they were uploaded).
  package mutating func markUploaded() { dirtyRows = 0..<0 }

  /// The bytes of `rows`, for uploading them.
  package func bytes(ofRows rows: Range<Int>) -> [UInt8] {
    let range = rows.lowerBound * width * bytesPerTexel..<rows.upperBound * width * bytesPerTexel
    return texels.isEmpty ? [UInt8](repeating: 0, count: range.count) : Array(texels[range])
  }
}
