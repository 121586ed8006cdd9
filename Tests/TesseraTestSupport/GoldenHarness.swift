import Foundation
import TesseraImage
import TesseraTesting

/// Tessera's own golden images, checked with TesseraTesting's verifier in the manner of
/// MapLibre's render tests.
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
    let location = SnapshotLocation(
      name: (caseDirectory as NSString).lastPathComponent, referencePath: caseDirectory + "/expected.png",
      actualPath: caseDirectory + "/actual.png", diffPath: caseDirectory + "/diff.png")
    let verdict = SnapshotVerifier.verify(
      actual, at: location, tolerance: SnapshotTolerance(threshold: threshold, allowed: allowed),
      recording: updating ? .all : .never)
    let hint = verdict.kind == .failed && !updating ? " (run with UPDATE_GOLDENS=1 to accept it)" : ""
    return Outcome(passed: verdict.passed, message: verdict.message + hint)
  }
}
