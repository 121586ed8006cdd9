import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraRender

extension RenderPool {
  /// Renders `scene` on one of the pool's threads without blocking the caller's: many
  /// awaiting callers keep all of the pool's threads busy. Cancelling the calling task
  /// cancels the render (skipped if not begun, else stopped at its next check) and throws
  /// ``RenderCancelledError``.
  public func snapshot(_ scene: Scene, alpha: AlphaRepresentation = .straight) async throws -> Snapshot {
    let cancellation = RenderCancellation()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        submit(scene, alpha: alpha, cancellation: cancellation) { continuation.resume(with: $0) }
      }
    } onCancel: {
      cancellation.cancel()
    }
  }

  /// Renders the tiles of `job` on one of the pool's threads without blocking the caller's.
  public func tiles(_ job: TileJob) async throws -> [TileID: RGBAImage] {
    try await withCheckedThrowingContinuation { continuation in
      submit(job) { continuation.resume(with: $0) }
    }
  }
}
