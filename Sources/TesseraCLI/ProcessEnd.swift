import Foundation
import Synchronization
import TesseraNumbers

/// How the `tessera` executable ends a one-shot command: what the command has written is
/// complete when it returns, so the maps it drew with need not be taken apart. Tearing a map
/// down (its GL objects, the llvmpipe context and its threads, the resource and tile caches)
/// and running the libraries' exit handlers cost a one-shot `tessera render` of a 256×256 map
/// about 9 ms of its 130 (see docs/performance.md); the operating system reclaims the memory
/// at once instead.
///
/// Only the executable turns this on (``endsWithoutTeardown``); inside another process (the
/// tests, a program linking TesseraCLI) ``keepUntilExit(_:)`` keeps nothing and every object is
/// released as usual.
public enum ProcessEnd {
  private static let skipsTeardown = Atomic<Bool>(false)
  private static let kept = Atomic<Int>(0)

  /// Called once by the executable before running a command: objects handed to
  /// ``keepUntilExit(_:)`` then live until ``exit(_:)`` ends the process.
  public static func endsWithoutTeardown() {
    skipsTeardown.store(true, ordering: .relaxed)
  }

  /// Keeps `object` (a map a one-shot command drew with) alive until the process exits, when
  /// the executable ends without teardown; otherwise does nothing. Never hand it objects of a
  /// command that keeps running (a server, a batch), which would then hold every one.
  static func keepUntilExit(_ object: AnyObject) {
    guard skipsTeardown.load(ordering: .relaxed) else { return }
    // One retain never balanced: the object outlives every reference the command drops.
    _ = Unmanaged.passRetained(object)
    kept.add(1, ordering: .relaxed)
  }

  /// How many objects are kept (for tests).
  static var keptCount: Int { kept.load(ordering: .relaxed) }

  /// Ends the process with `status`: without teardown (standard streams flushed, then
  /// `_exit`) when the executable asked for it, else through `exit` and its handlers.
  public static func exit(_ status: Int32) -> Never {
    guard skipsTeardown.load(ordering: .relaxed) else { Foundation.exit(status) }
    fflush(nil)
    _exit(status)
  }
}
