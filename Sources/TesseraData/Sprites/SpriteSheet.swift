import Foundation
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// One image of a sprite sheet: its pixels cut out of the sheet.
package struct SpriteImage: Sendable, Equatable {
  /// Its pixels (straight alpha), `pixelRatio` pixels per point.
  package let image: RGBAImage
  /// Image pixels per point (2 for images made for high-density screens).
  package let pixelRatio: Double
  /// Whether it is a signed-distance field (icons recoloured by `icon-color`).
  package let isSDF: Bool
  /// Image pixel ranges (x, and y) that stretch when the icon is fitted around text
  /// (`icon-text-fit`); empty: the whole image stretches.
  package var stretchX: [(Double, Double)] = []
  package var stretchY: [(Double, Double)] = []
  /// The part text is fitted into (left, top, right, bottom image pixels), if given.
  package var content: (Double, Double, Double, Double)?

  package init(image: RGBAImage, pixelRatio: Double, isSDF: Bool = false) {
    self.image = image
    self.pixelRatio = pixelRatio
    self.isSDF = isSDF
  }

  package static func == (a: SpriteImage, b: SpriteImage) -> Bool {
    a.image == b.image && a.pixelRatio == b.pixelRatio && a.isSDF == b.isSDF
      && a.stretchX.elementsEqual(b.stretchX, by: ==)
      && a.stretchY.elementsEqual(b.stretchY, by: ==)
      && a.content.map { [$0.0, $0.1, $0.2, $0.3] } == b.content.map { [$0.0, $0.1, $0.2, $0.3] }
  }

  /// Its size in points.
  package var displaySize: (width: Double, height: Double) {
    (Double(image.width) / pixelRatio, Double(image.height) / pixelRatio)
  }
}

/// A sprite file that cannot be used.
package struct SpriteError: Error, Equatable, CustomStringConvertible {
  /// The file (index JSON or sheet image).
  package let file: String
  package let reason: String

  package var description: String { "\(file): \(reason)" }
}

/// A style's sprite: named images cut from one sheet picture by an index JSON
/// (`{"name": {"x", "y", "width", "height", "pixelRatio", "sdf"}}`), as MapLibre styles
/// publish them (`NAME.json` + `NAME.png`, and `NAME@2x.…` for high-density screens).
package struct SpriteSheet: Sendable {
  /// The images by name.
  package let images: [String: SpriteImage]
  /// Entries left out, each with the reason (outside the sheet, wrong fields).
  package let problems: [String]

  /// The most images a sheet may index.
  package static let maximumImages = 100_000

  /// Cuts the images the index JSON `index` lists out of the sheet picture `sheet` (PNG, JPEG
  /// or WebP bytes); `source` names the sprite in messages. An entry that is not an object,
  /// lacks a field, or lies outside the sheet is left out with a problem; an index that is not
  /// a JSON object or a sheet that cannot be decoded throws.
  package static func decode(index: [UInt8], sheet: [UInt8], source: String) throws(SpriteError) -> SpriteSheet {
    let json: JSONValue
    do {
      json = try JSONParser.parse(index)
    } catch {
      throw SpriteError(file: source + ".json", reason: "invalid JSON: \(error)")
    }
    guard case .object(let entries) = json else {
      throw SpriteError(file: source + ".json", reason: "expected an object of images, found \(json.kindDescription)")
    }
    guard entries.count <= maximumImages else {
      throw SpriteError(
        file: source + ".json", reason: "\(entries.count) images; at most \(maximumImages) are read")
    }
    let picture: RGBAImage
    do {
      picture = try ImageCodec.decode(sheet, source: source + ".png").straightAlpha()
    } catch {
      throw SpriteError(file: source + ".png", reason: "\(error)")
    }
    var images: [String: SpriteImage] = [:]
    var problems: [String] = []
    for (name, entry) in entries.pairs {
      do {
        images[name] = try cut(entry, from: picture)
      } catch {
        problems.append("\(source).json: image '\(name)': \(error.reason); left out")
      }
    }
    return SpriteSheet(images: images, problems: problems)
  }

  /// Reads `base.json` and `base.png`, or `base@2x.…` when `pixelRatio` > 1 and they exist.
  package static func load(base: String, pixelRatio: Double) throws(SpriteError) -> SpriteSheet {
    let manager = FileManager.default
    var chosen = base
    if pixelRatio > 1, manager.fileExists(atPath: base + "@2x.json"), manager.fileExists(atPath: base + "@2x.png") {
      chosen = base + "@2x"
    }
    guard let index = manager.contents(atPath: chosen + ".json") else {
      throw SpriteError(file: chosen + ".json", reason: "cannot read the sprite index")
    }
    guard let sheet = manager.contents(atPath: chosen + ".png") else {
      throw SpriteError(file: chosen + ".png", reason: "cannot read the sprite sheet")
    }
    return try decode(index: Array(index), sheet: Array(sheet), source: chosen)
  }

  /// One entry's image, cut from `picture` (straight alpha).
  private static func cut(_ entry: JSONValue, from picture: RGBAImage) throws(SpriteError) -> SpriteImage {
    guard case .object(let fields) = entry else {
      throw SpriteError(file: "", reason: "expected an object, found \(entry.kindDescription)")
    }
    func integer(_ key: String, within range: ClosedRange<Int>) throws(SpriteError) -> Int {
      guard case .number(let number)? = fields[key] else {
        throw SpriteError(file: "", reason: "'\(key)' must be a number")
      }
      guard number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound)
      else {
        throw SpriteError(
          file: "", reason: "'\(key)' is \(number); expected a whole number in \(range.lowerBound)…\(range.upperBound)")
      }
      return Int(clamping: number)
    }
    let x = try integer("x", within: 0...picture.width)
    let y = try integer("y", within: 0...picture.height)
    let width = try integer("width", within: 1...max(picture.width - x, 1))
    let height = try integer("height", within: 1...max(picture.height - y, 1))
    guard x + width <= picture.width, y + height <= picture.height else {
      throw SpriteError(file: "", reason: "lies outside the \(picture.width)×\(picture.height) sheet")
    }
    var ratio = 1.0
    if let value = fields["pixelRatio"] {
      guard case .number(let number) = value, number.isFinite, number > 0, number <= 16 else {
        throw SpriteError(file: "", reason: "'pixelRatio' must be a number in (0, 16]")
      }
      ratio = number
    }
    var isSDF = false
    if let value = fields["sdf"] {
      guard case .bool(let flag) = value else { throw SpriteError(file: "", reason: "'sdf' must be true or false") }
      isSDF = flag
    }
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for row in 0..<height {
      let from = ((y + row) * picture.width + x) * 4
      pixels.replaceSubrange(row * width * 4..<(row + 1) * width * 4, with: picture.pixels[from..<from + width * 4])
    }
    var sprite = SpriteImage(
      image: RGBAImage(width: width, height: height, pixels: pixels), pixelRatio: ratio, isSDF: isSDF)
    func pairs(_ key: String) throws(SpriteError) -> [(Double, Double)] {
      guard let value = fields[key] else { return [] }
      guard case .array(let list) = value else { throw SpriteError(file: "", reason: "'\(key)' must be an array") }
      var result: [(Double, Double)] = []
      for element in list {
        guard case .array(let pair) = element, pair.count == 2, let a = pair[0].number, let b = pair[1].number,
          a.isFinite, b.isFinite, a <= b
        else { throw SpriteError(file: "", reason: "'\(key)' must hold [from, to] pairs") }
        result.append((a, b))
      }
      return result
    }
    sprite.stretchX = try pairs("stretchX")
    sprite.stretchY = try pairs("stretchY")
    if let value = fields["content"] {
      guard case .array(let list) = value, list.count == 4, let numbers = Optional(list.compactMap(\.number)),
        numbers.count == 4, numbers.allSatisfy(\.isFinite)
      else { throw SpriteError(file: "", reason: "'content' must be [left, top, right, bottom]") }
      sprite.content = (numbers[0], numbers[1], numbers[2], numbers[3])
    }
    return sprite
  }
}
