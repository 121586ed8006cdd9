import Foundation
import TesseraImage

/// Golden-image comparison in the manner of MapLibre's render tests.
///
/// A case folder holds `case.json` and `expected.png`. The rendered image is compared with the
/// pixel diff (per-pixel threshold, default 0.1285) and passes when the fraction of differing
/// pixels is at most `allowed` (default 0.00015). On failure `actual.png` and `diff.png` are
/// written into the case folder and the numbers are reported. A missing golden fails; with
/// `UPDATE_GOLDENS=1` in the environment the golden is (re)written and the case still fails, so
/// nobody forgets to look at the new image.
public struct GoldenHarness {
  /// The default fraction of pixels allowed to differ.
  public static let defaultAllowed = 0.00015
  /// The default per-pixel threshold.
  public static let defaultThreshold = 0.1285

  /// What a comparison found.
  public struct Outcome: CustomStringConvertible {
    public let passed: Bool
    public let message: String
    public var description: String { message }
  }

  /// Whether `UPDATE_GOLDENS=1` asks for goldens to be rewritten.
  public static var updating: Bool {
    ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1"
  }

  /// Compares `actual` with the golden of `caseDirectory`.
  public static func check(
    _ actual: RGBAImage, caseDirectory: String, allowed: Double = defaultAllowed,
    threshold: Double = defaultThreshold
  ) -> Outcome {
    let expectedPath = caseDirectory + "/expected.png"
    let actualPath = caseDirectory + "/actual.png"
    let diffPath = caseDirectory + "/diff.png"
    let name = (caseDirectory as NSString).lastPathComponent
    let straight = actual.straightAlpha()
    if updating {
      write(straight, to: expectedPath)
      remove(actualPath)
      remove(diffPath)
      return Outcome(
        passed: false,
        message:
          "\(name): golden written to \(expectedPath) (UPDATE_GOLDENS=1); look at it, then rerun without UPDATE_GOLDENS"
      )
    }
    guard let data = FileManager.default.contents(atPath: expectedPath) else {
      write(straight, to: actualPath)
      return Outcome(
        passed: false,
        message:
          "\(name): golden missing: \(expectedPath) (actual written to \(actualPath); run with UPDATE_GOLDENS=1 to accept it)"
      )
    }
    let expected: RGBAImage
    do {
      expected = try PNGCodec.decode(Array(data), source: expectedPath)
    } catch {
      return Outcome(passed: false, message: "\(name): \(error)")
    }
    let result: PixelDiff.Result
    do {
      result = try PixelDiff(threshold: threshold).compare(straight, expected)
    } catch {
      write(straight, to: actualPath)
      return Outcome(passed: false, message: "\(name): \(error) (actual written to \(actualPath))")
    }
    let numbers =
      "\(result.differentPixels) of \(result.totalPixels) pixels differ (fraction \(result.differentFraction), allowed \(allowed), threshold \(threshold))"
    if result.differentFraction <= allowed {
      remove(actualPath)
      remove(diffPath)
      return Outcome(passed: true, message: "\(name): \(numbers)")
    }
    write(straight, to: actualPath)
    write(result.diffImage, to: diffPath)
    return Outcome(passed: false, message: "\(name): \(numbers); see \(actualPath) and \(diffPath)")
  }

  private static func write(_ image: RGBAImage, to path: String) {
    if let bytes = try? PNGCodec.encode(image, settings: .small) {
      _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }
  }

  private static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }
}
