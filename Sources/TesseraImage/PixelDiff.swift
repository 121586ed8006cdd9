import TesseraNumbers

/// A perceptual per-pixel image comparison in the manner of pixelmatch.
///
/// Two pixels differ when the YIQ distance between them (each blended over white by its alpha)
/// exceeds `threshold`² × 35215, the largest possible distance; `threshold` 0 demands exact
/// equality and 1 accepts anything. With anti-aliasing detection on, a differing pixel that looks
/// like an anti-aliased edge in either image (its 3×3 neighbourhood holds both a darker and a
/// brighter neighbour, one of which sits in a flat area) is counted separately, not as a
/// difference. MapLibre's render tests use threshold 0.1285 with detection on.
public struct PixelDiff: Sendable {
  /// MapLibre's render-test threshold, 0.1285: the per-pixel YIQ distance (0…1) above which
  /// two pixels differ. Every comparison "by MapLibre's rule" uses this one value.
  public static let mapLibreThreshold = 0.1285
  /// MapLibre's render-test `allowed` default, 0.00015 (0.015%): the share of pixels that may
  /// differ for two images to match.
  public static let mapLibreAllowedFraction = 0.00015

  /// Per-pixel colour distance threshold, 0...1.
  public var threshold: Double
  /// Whether anti-aliased pixels count as differences (false: they are detected and excused).
  public var includeAntialiasing: Bool
  /// Which alpha representation is blended over white: `.straight` (pixelmatch's own rule) or
  /// `.premultiplied` (MapLibre Native's render-test runner, which blends premultiplied
  /// values and truncates to integers).
  public var blending: AlphaRepresentation

  /// Makes a comparison with the given threshold (default ``mapLibreThreshold``).
  public init(
    threshold: Double = PixelDiff.mapLibreThreshold, includeAntialiasing: Bool = false,
    blending: AlphaRepresentation = .straight
  ) {
    self.threshold = threshold
    self.includeAntialiasing = includeAntialiasing
    self.blending = blending
  }

  /// What a comparison found.
  public struct Result: Sendable {
    /// Pixels whose colour distance exceeds the threshold (anti-aliased ones excluded).
    public let differentPixels: Int
    /// Differing pixels that were excused as anti-aliasing.
    public let antialiasedPixels: Int
    /// All pixels compared.
    public let totalPixels: Int
    /// A picture of the differences: the expected image faded to grey, differences red,
    /// excused anti-aliasing yellow.
    public let diffImage: RGBAImage
    /// The largest colour distance of a counted difference, on the threshold's scale (0…1:
    /// the smallest threshold that would accept every pixel); 0 when none differs.
    public var largestDistance = 0.0
    /// The largest difference of one channel (red, green, blue or alpha, 0…255) between the
    /// images' pixels, over every pixel.
    public var largestChannelDifference = 0

    /// `differentPixels / totalPixels` (0 for empty images).
    public var differentFraction: Double {
      totalPixels == 0 ? 0 : Double(differentPixels) / Double(totalPixels)
    }
  }

  /// Why two images could not be compared.
  public struct SizeMismatch: Error, CustomStringConvertible {
    public let actual: (Int, Int)
    public let expected: (Int, Int)
    public var description: String {
      "images differ in size: \(actual.0)x\(actual.1) vs \(expected.0)x\(expected.1)"
    }
  }

  /// Compares two images of equal size (both are converted to the ``blending`` representation
  /// first).
  public func compare(_ actual: RGBAImage, _ expected: RGBAImage) throws(SizeMismatch) -> Result {
    guard actual.width == expected.width, actual.height == expected.height else {
      throw SizeMismatch(
        actual: (actual.width, actual.height), expected: (expected.width, expected.height))
    }
    let premultiplied = blending == .premultiplied
    let a = YIQPlane(premultiplied ? actual.premultipliedAlpha() : actual.straightAlpha(), truncating: premultiplied)
    let b = YIQPlane(
      premultiplied ? expected.premultipliedAlpha() : expected.straightAlpha(), truncating: premultiplied)
    let width = actual.width
    let height = actual.height
    let maxDelta = 35215 * threshold * threshold
    var diffPixels = [UInt8](repeating: 0, count: width * height * 4)
    var different = 0
    var antialiased = 0
    var largestDelta = 0.0
    var largestChannel = 0
    for (first, second) in zip(a.raw, b.raw) {
      largestChannel = max(largestChannel, abs(Int(first) - Int(second)))
    }
    for y in 0..<height {
      for x in 0..<width {
        let index = y * width + x
        let delta = a.rawEqual(b, index) ? 0 : a.distance(b, index)
        let out = index * 4
        if abs(delta) > maxDelta {
          let excused =
            !includeAntialiasing
            && (a.isAntialiased(x: x, y: y, other: b) || b.isAntialiased(x: x, y: y, other: a))
          let mark: (UInt8, UInt8, UInt8) = excused ? (255, 255, 0) : (255, 0, 0)
          diffPixels[out] = mark.0
          diffPixels[out + 1] = mark.1
          diffPixels[out + 2] = mark.2
          if excused {
            antialiased += 1
          } else {
            different += 1
            largestDelta = max(largestDelta, abs(delta))
          }
        } else {
          let grey = UInt8(clamping: min(255, max(0, 255 + (b.luma[index] - 255) * 0.1)))
          diffPixels[out] = grey
          diffPixels[out + 1] = grey
          diffPixels[out + 2] = grey
        }
        diffPixels[out + 3] = 255
      }
    }
    var result = Result(
      differentPixels: different, antialiasedPixels: antialiased, totalPixels: width * height,
      diffImage: RGBAImage(width: width, height: height, pixels: diffPixels, alpha: .straight))
    result.largestDistance = min((largestDelta / 35215).squareRoot(), 1)
    result.largestChannelDifference = largestChannel
    return result
  }
}

/// An image's pixels blended over white, in YIQ, plus the raw bytes for exact comparison.
private struct YIQPlane {
  let width: Int
  let height: Int
  let raw: [UInt8]
  let luma: [Double]
  let inPhase: [Double]
  let quadrature: [Double]

  /// `truncating` rounds the blended channels down to integers (MapLibre Native's runner).
  init(_ image: RGBAImage, truncating: Bool) {
    width = image.width
    height = image.height
    raw = image.pixels
    let count = width * height
    var y = [Double](repeating: 0, count: count)
    var i = [Double](repeating: 0, count: count)
    var q = [Double](repeating: 0, count: count)
    for index in 0..<count {
      let alpha = Double(raw[index * 4 + 3]) / 255
      var r = 255 + (Double(raw[index * 4]) - 255) * alpha
      var g = 255 + (Double(raw[index * 4 + 1]) - 255) * alpha
      var b = 255 + (Double(raw[index * 4 + 2]) - 255) * alpha
      if truncating { (r, g, b) = (r.rounded(.down), g.rounded(.down), b.rounded(.down)) }
      y[index] = r * 0.29889531 + g * 0.58662247 + b * 0.11448223
      i[index] = r * 0.59597799 - g * 0.27417610 - b * 0.32180189
      q[index] = r * 0.21147017 - g * 0.52261711 + b * 0.31114694
    }
    luma = y
    inPhase = i
    quadrature = q
  }

  func rawEqual(_ other: YIQPlane, _ index: Int) -> Bool {
    let base = index * 4
    return raw[base] == other.raw[base] && raw[base + 1] == other.raw[base + 1]
      && raw[base + 2] == other.raw[base + 2] && raw[base + 3] == other.raw[base + 3]
  }

  /// Weighted YIQ distance between this plane's and `other`'s pixel at `index`; negative when
  /// `other` is brighter.
  func distance(_ other: YIQPlane, _ index: Int) -> Double {
    distance(index, other, index)
  }

  func distance(_ index: Int, _ other: YIQPlane, _ otherIndex: Int) -> Double {
    let dy = luma[index] - other.luma[otherIndex]
    let di = inPhase[index] - other.inPhase[otherIndex]
    let dq = quadrature[index] - other.quadrature[otherIndex]
    let delta = 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq
    return dy > 0 ? -delta : delta
  }

  /// Whether the pixel at (x, y) looks like an anti-aliased edge: among its neighbours there is
  /// both a darker and a brighter one, at most two are equal to it, and the darkest or the
  /// brightest neighbour lies in a flat area in both images.
  func isAntialiased(x: Int, y: Int, other: YIQPlane) -> Bool {
    let x0 = max(x - 1, 0)
    let y0 = max(y - 1, 0)
    let x1 = min(x + 1, width - 1)
    let y1 = min(y + 1, height - 1)
    let centre = y * width + x
    var equalNeighbours = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0
    var darkest = (value: 0.0, x: 0, y: 0)
    var brightest = (value: 0.0, x: 0, y: 0)
    for ny in y0...y1 {
      for nx in x0...x1 where nx != x || ny != y {
        let delta = luma[ny * width + nx] - luma[centre]
        if delta == 0 {
          equalNeighbours += 1
          if equalNeighbours > 2 { return false }
        } else if delta < darkest.value {
          darkest = (delta, nx, ny)
        } else if delta > brightest.value {
          brightest = (delta, nx, ny)
        }
      }
    }
    if darkest.value == 0 || brightest.value == 0 { return false }
    return (hasFlatSurroundings(darkest.x, darkest.y) && other.hasFlatSurroundings(darkest.x, darkest.y))
      || (hasFlatSurroundings(brightest.x, brightest.y)
        && other.hasFlatSurroundings(brightest.x, brightest.y))
  }

  /// Whether at least three neighbours of (x, y) have exactly its bytes (edges count as one).
  func hasFlatSurroundings(_ x: Int, _ y: Int) -> Bool {
    let x0 = max(x - 1, 0)
    let y0 = max(y - 1, 0)
    let x1 = min(x + 1, width - 1)
    let y1 = min(y + 1, height - 1)
    let centre = (y * width + x) * 4
    var equal = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0
    for ny in y0...y1 {
      for nx in x0...x1 where nx != x || ny != y {
        let other = (ny * width + nx) * 4
        if raw[centre] == raw[other] && raw[centre + 1] == raw[other + 1]
          && raw[centre + 2] == raw[other + 2] && raw[centre + 3] == raw[other + 3]
        {
          equal += 1
          if equal > 2 { return true }
        }
      }
    }
    return false
  }
}
