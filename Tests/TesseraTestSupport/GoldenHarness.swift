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
/// `TESSERA_RECORD=1` in the environment (the switch TesseraTesting reads too) the golden is
/// (re)written and the case still fails, so nobody forgets to look at the new image. The old
/// switch, `UPDATE_GOLDENS`, fails every case with a message naming the new one.
public struct GoldenHarness {
  /// The default fraction of pixels allowed to differ.
  public static let defaultAllowed = PixelDiff.mapLibreAllowedFraction
  /// The default per-pixel threshold.
  public static let defaultThreshold = PixelDiff.mapLibreThreshold

  /// What a comparison found.
  public struct Outcome: CustomStringConvertible {
    public let passed: Bool
    public let message: String
    public var description: String { message }
  }

  /// The environment variable that asks for goldens (and TesseraTesting's references) to be
  /// rewritten.
  public static let recordVariable = "TESSERA_RECORD"
  /// The variable that used to ask for it; set, it fails every case with a message naming
  /// ``recordVariable``.
  public static let retiredRecordVariable = "UPDATE_GOLDENS"

  /// Whether `TESSERA_RECORD=1` asks for goldens to be rewritten.
  public static func updating(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
    environment[recordVariable] == "1"
  }

  /// Compares `actual` with the golden of `caseDirectory`.
  public static func check(
    _ actual: RGBAImage, caseDirectory: String, allowed: Double = defaultAllowed,
    threshold: Double = defaultThreshold, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Outcome {
    if environment[retiredRecordVariable] != nil {
      return Outcome(
        passed: false,
        message: "\(retiredRecordVariable) is no longer read: use \(recordVariable)=1 to record goldens "
          + "(the same switch as TesseraTesting's snapshots)")
    }
    let updating = updating(environment)
    let location = SnapshotLocation(
      name: (caseDirectory as NSString).lastPathComponent, referencePath: caseDirectory + "/expected.png",
      actualPath: caseDirectory + "/actual.png", diffPath: caseDirectory + "/diff.png")
    let verdict = SnapshotVerifier.verify(
      actual, at: location, tolerance: SnapshotTolerance(threshold: threshold, allowed: allowed),
      recording: updating ? .all : .never)
    let hint = verdict.kind == .failed && !updating ? " (run with \(recordVariable)=1 to accept it)" : ""
    return Outcome(passed: verdict.passed, message: verdict.message + hint)
  }
}
