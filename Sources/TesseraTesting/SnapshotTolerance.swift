import Tessera
import TesseraImage
import TesseraNumbers

/// How different a snapshot may be from its reference and still match, by MapLibre's
/// render-test rule: a pixel differs when its YIQ colour distance (both blended over white)
/// exceeds ``threshold`` (anti-aliased edges excused), and the snapshot matches when at most
/// ``allowed`` of its pixels differ.
public struct SnapshotTolerance: Sendable, Equatable, CustomStringConvertible {
  /// Per-pixel threshold, 0…1 (0: the colours must be equal).
  public var threshold: Double
  /// Share of pixels that may differ, 0…1.
  public var allowed: Double

  public init(threshold: Double = PixelDiff.mapLibreThreshold, allowed: Double = PixelDiff.mapLibreAllowedFraction) {
    self.threshold = min(max(threshold, 0), 1)
    self.allowed = min(max(allowed, 0), 1)
  }

  /// MapLibre's render tests: threshold 0.1285, 0.015% of pixels (``PixelDiff/mapLibreThreshold``,
  /// ``PixelDiff/mapLibreAllowedFraction``).
  public static let mapLibre = SnapshotTolerance()
  /// Every pixel equal.
  public static let exact = SnapshotTolerance(threshold: 0, allowed: 0)

  public var description: String { "threshold \(threshold), allowed \(allowed)" }
}
