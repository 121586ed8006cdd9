import Foundation
import TesseraNumbers

/// Keeps the contexts of one display from making GL calls at the same time, where the driver
/// needs it: on llvmpipe, whose contexts read each other's state.
///
/// llvmpipe (Mesa 22.3) checks whether a texture is still being drawn into, before a draw
/// samples it or a transfer maps it (`llvmpipe_flush_resource`), by looking through the
/// scenes of every context on the screen, without locking them, while each context's own
/// thread frees and rebuilds its scenes. Two threads drawing at once on one display could read
/// freed memory there and stop the process with a segmentation fault (`render --batch` with
/// four threads on two display lanes: 3 of 37 batches of 2,000 jobs). Contexts on one display
/// therefore take turns, a GL call at a time: ``GLDevice`` holds its display's exclusion around each of its methods, and
/// ``GLContext`` around making, making current, releasing and destroying a context. Devices
/// on different displays (``HeadlessDisplay``'s lanes) do not wait for each other; hardware
/// drivers keep their contexts apart themselves and get an exclusion that does nothing.
///
/// The lock is recursive: a device's method may call another's, and one thread may use
/// several devices of the display in turn.
package final class ContextExclusion: @unchecked Sendable {
  /// Whether contexts of the display take turns (software renderers).
  package let isExclusive: Bool
  private let lock = NSRecursiveLock()

  package init(exclusive: Bool) {
    isExclusive = exclusive
  }

  /// Mesa's drivers that draw with llvmpipe (`eglGetDisplayDriverName`): the surfaceless and
  /// device platforms' "swrast", the gbm platform's "kms_swrast" (which Mesa loads there when
  /// `LIBGL_ALWAYS_SOFTWARE` is set or a render node's own driver fails to start).
  static let softwareDriverNames: Set<String> = ["swrast", "kms_swrast"]

  /// Whether a display's contexts must take turns: where the display names its driver
  /// (`driverName`), when that is llvmpipe; else where the platform may draw in software, and on
  /// the gbm platform, whose driver may be llvmpipe (taking turns there costs only parallel
  /// draws, not taking them may cost the process).
  package static func isNeeded(mayDrawInSoftware: Bool, isGBM: Bool, driverName: String?) -> Bool {
    if let driverName { return softwareDriverNames.contains(driverName) }
    return mayDrawInSoftware || isGBM
  }

  /// Waits until no other thread is making GL calls on the display, and holds it until the
  /// matching ``leave()``.
  package func enter() {
    if isExclusive { lock.lock() }
  }

  /// Ends what the matching ``enter()`` began.
  package func leave() {
    if isExclusive { lock.unlock() }
  }

  /// Runs `body` between ``enter()`` and ``leave()``.
  package func withTurn<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
    enter()
    defer { leave() }
    return try body()
  }
}
