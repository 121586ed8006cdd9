import Foundation
import TesseraData
import TesseraImage
import TesseraNumbers

/// The icons of the built-in map types, drawn analytically at the map's pixel density (so they
/// stay crisp at every scale): round POI badges in their category's colour, and route shields
/// that stretch around their number (`icon-text-fit`).
enum BuiltinIcons {
  /// POI categories and their badge colours (Google's category hues).
  static let categoryColors: [(name: String, color: Color)] = [
    ("food", Color(r: 242, g: 139, b: 38)), ("shopping", Color(r: 66, g: 133, b: 244)),
    ("health", Color(r: 234, g: 67, b: 53)), ("park", Color(r: 52, g: 168, b: 83)),
    ("culture", Color(r: 18, g: 181, b: 203)), ("education", Color(r: 142, g: 124, b: 195)),
    ("civic", Color(r: 123, g: 128, b: 136)), ("transit", Color(r: 25, g: 103, b: 210)),
    ("generic", Color(r: 128, g: 134, b: 139)),
  ]

  /// OpenMapTiles POI classes by category; other classes are `generic`.
  static let categoryClasses: [(category: String, classes: [String])] = [
    ("food", ["cafe", "restaurant", "fast_food", "bar", "beer", "ice_cream", "bakery", "food_court", "pub"]),
    (
      "shopping",
      ["shop", "grocery", "clothing_store", "supermarket", "convenience", "jewelry", "hairdresser", "alcohol_shop"]
    ),
    ("health", ["hospital", "pharmacy", "doctors", "dentist", "clinic", "veterinary"]),
    ("park", ["park", "playground", "garden", "golf", "pitch", "zoo", "campsite"]),
    ("culture", ["museum", "art_gallery", "theatre", "cinema", "attraction", "monument", "castle", "music"]),
    ("education", ["school", "college", "university", "kindergarten", "library"]),
    ("civic", ["bank", "town_hall", "post", "police", "fire_station", "place_of_worship", "embassy", "lodging"]),
    ("transit", ["bus", "railway", "ferry_terminal", "aerialway", "harbor", "parking", "fuel"]),
  ]

  /// Shield styles by road class: fill and border colours.
  static let shields: [(roadClass: String, fill: Color, border: Color)] = [
    ("motorway", Color(r: 26, g: 95, b: 180), Color(r: 255, g: 255, b: 255)),
    ("trunk", Color(r: 0, g: 112, b: 60), Color(r: 255, g: 255, b: 255)),
    ("primary", Color(r: 255, g: 255, b: 255), Color(r: 95, g: 99, b: 104)),
  ]

  /// The text colour of each shield's number.
  static let shieldText = ["motorway": "#ffffff", "trunk": "#ffd200", "primary": "#202124"]

  /// Every icon at `pixelRatio` pixels per point, by image name (`poi-food`, `shield-motorway`, …).
  static func images(pixelRatio: Double) -> [String: SpriteImage] {
    let scale = min(max(pixelRatio, 0.25), 8)
    var images: [String: SpriteImage] = [:]
    for (name, color) in categoryColors {
      images["poi-\(name)"] = SpriteImage(image: badge(color: color, scale: scale), pixelRatio: scale)
    }
    for shield in shields {
      var image = SpriteImage(
        image: shieldImage(fill: shield.fill, border: shield.border, scale: scale), pixelRatio: scale)
      let size = Double(image.image.width)
      let height = Double(image.image.height)
      let inset = 4 * scale
      image.stretchX = [(inset, size - inset)]
      image.stretchY = [(inset, height - inset)]
      image.content = (3 * scale, 2 * scale, size - 3 * scale, height - 2 * scale)
      images["shield-\(shield.roadClass)"] = image
    }
    return images
  }

  /// A badge: a 15-point disc in `color` with a white ring and a white centre dot.
  static func badge(color: Color, scale: Double) -> RGBAImage {
    let size = 15.0
    return paint(width: size, height: size, scale: scale) { x, y in
      let distance = hypot(x - size / 2, y - size / 2)
      let outer = 7.3 - distance
      let ring = 6.1 - distance
      let dot = 2.4 - distance
      return [(outer, Color(r: 255, g: 255, b: 255)), (ring, color), (dot, Color(r: 255, g: 255, b: 255))]
    }
  }

  /// A route shield: an 18 × 14-point rounded rectangle with a 1-point border.
  static func shieldImage(fill: Color, border: Color, scale: Double) -> RGBAImage {
    let width = 18.0
    let height = 14.0
    return paint(width: width, height: height, scale: scale) { x, y in
      let outer = -roundedBox(x - width / 2, y - height / 2, width / 2 - 0.5, height / 2 - 0.5, radius: 3)
      let inner = -roundedBox(x - width / 2, y - height / 2, width / 2 - 1.5, height / 2 - 1.5, radius: 2)
      return [(outer, border), (inner, fill)]
    }
  }

  /// Signed distance (points) to a rounded box of half extents `hx`, `hy`, negative inside.
  private static func roundedBox(_ x: Double, _ y: Double, _ hx: Double, _ hy: Double, radius: Double) -> Double {
    let qx = abs(x) - hx + radius
    let qy = abs(y) - hy + radius
    return hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - radius
  }

  /// An image `width` × `height` points at `scale`, each pixel the layers `shape` gives for its
  /// centre (points) composited in order: each layer's coverage is its inside distance
  /// (points, positive inside) over one pixel of antialiasing.
  private static func paint(
    width: Double, height: Double, scale: Double, shape: (Double, Double) -> [(Double, Color)]
  ) -> RGBAImage {
    let pixelWidth = max(Int(clamping: (width * scale).rounded()), 1)
    let pixelHeight = max(Int(clamping: (height * scale).rounded()), 1)
    var pixels = [UInt8](repeating: 0, count: pixelWidth * pixelHeight * 4)
    for row in 0..<pixelHeight {
      for column in 0..<pixelWidth {
        let layers = shape((Double(column) + 0.5) / scale, (Double(row) + 0.5) / scale)
        // Premultiplied "over" of the layers, bottom first.
        var (r, g, b, a) = (0.0, 0.0, 0.0, 0.0)
        for (inside, color) in layers {
          let coverage = min(max(inside * scale + 0.5, 0), 1) * color.alpha
          r = color.red * coverage + r * (1 - coverage)
          g = color.green * coverage + g * (1 - coverage)
          b = color.blue * coverage + b * (1 - coverage)
          a = coverage + a * (1 - coverage)
        }
        let index = (row * pixelWidth + column) * 4
        guard a > 0 else { continue }
        pixels[index] = UInt8(clamping: (min(r / a, 1) * 255).rounded())
        pixels[index + 1] = UInt8(clamping: (min(g / a, 1) * 255).rounded())
        pixels[index + 2] = UInt8(clamping: (min(b / a, 1) * 255).rounded())
        pixels[index + 3] = UInt8(clamping: (min(a, 1) * 255).rounded())
      }
    }
    return RGBAImage(width: pixelWidth, height: pixelHeight, pixels: pixels, alpha: .straight)
  }
}
