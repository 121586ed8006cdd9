import TesseraNumbers

/// Places icon images on atlas pages (shelf packing, tallest first so shelves stay tight), with
/// one transparent texel around each so linear filtering never bleeds between icons. Pages are
/// square, `pageSize` texels (at most the GL texture limit); a new page opens when one is full.
struct MarkerAtlasLayout {
  /// Where an icon lies: page and texel rectangle.
  struct Placement: Equatable {
    let page: Int
    let x: Int
    let y: Int
    let width: Int
    let height: Int
  }

  let pageSize: Int
  static let padding = 1
  private(set) var placements: [IconKey: Placement] = [:]
  private(set) var pageCount = 0
  /// The open shelves of the last page: (y, height, next free x).
  private var shelves: [(y: Int, height: Int, x: Int)] = []
  private var nextShelfY = 0

  init(pageSize: Int) {
    self.pageSize = pageSize
  }

  /// Places every icon not yet placed; returns the new placements. Icons larger than a page are
  /// refused (nil).
  mutating func place(_ icons: [IconKey]) -> [IconKey: Placement]? {
    var added: [IconKey: Placement] = [:]
    let pending = icons.filter { placements[$0] == nil }.sorted {
      ($0.height, $0.width, $0.contentHash) > ($1.height, $1.width, $1.contentHash)
    }
    for icon in pending where placements[icon] == nil {
      let width = icon.width + 2 * MarkerAtlasLayout.padding
      let height = icon.height + 2 * MarkerAtlasLayout.padding
      guard width <= pageSize, height <= pageSize else { return nil }
      if pageCount == 0 { openPage() }
      var spot = findSpot(width: width, height: height)
      if spot == nil {
        openPage()
        spot = findSpot(width: width, height: height)
      }
      guard let (x, y) = spot else { return nil }
      let placement = Placement(
        page: pageCount - 1, x: x + MarkerAtlasLayout.padding, y: y + MarkerAtlasLayout.padding, width: icon.width,
        height: icon.height)
      placements[icon] = placement
      added[icon] = placement
    }
    return added
  }

  private mutating func openPage() {
    pageCount += 1
    shelves = []
    nextShelfY = 0
  }

  private mutating func findSpot(width: Int, height: Int) -> (Int, Int)? {
    for index in shelves.indices where shelves[index].height >= height && shelves[index].x + width <= pageSize {
      let spot = (shelves[index].x, shelves[index].y)
      shelves[index].x += width
      return spot
    }
    guard nextShelfY + height <= pageSize else { return nil }
    shelves.append((nextShelfY, height, width))
    nextShelfY += height
    return (0, nextShelfY - height)
  }
}
