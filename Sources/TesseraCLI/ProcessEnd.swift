import Foundation
import Synchronization
import TesseraGL
import TesseraNumbers
import TesseraService

/// How the `tessera` executable ends a one-shot command: what the command has written is
/// complete when it returns, so the maps it drew with need not be taken apart. Tearing a map
/// down (its GL objects, the llvmpipe context and its threads, the resource and tile caches)
/// and running the libraries' exit handlers cost a one-shot `tessera render` of a 256×256 map
/// about 5 ms of its 120 (see docs/performance.md); the operating system reclaims the memory
/// at once instead.
///
/// Only the executable turns this on (``endsWithoutTeardown(environment:)``), and not in a
/// process under a sanitizer or with `TESSERA_TEARDOWN` set, where a checker wants to see
/// everything released. Inside another process (the tests, a program linking TesseraCLI)
/// ``keepUntilExit(_:)`` keeps nothing and every object is released as usual.
public enum ProcessEnd {
  /// The environment variable that keeps the teardown (any value but empty).
  public static let teardownVariable = "TESSERA_TEARDOWN"

  private static let skipsTeardown = Atomic<Bool>(false)
  /// The addresses of the objects kept, so that a leak checker finds them still reachable.
  private static let kept = Mutex<[UInt]>([])

  /// Called once by the executable before running a command: unless `environment` sets
  /// ``teardownVariable`` or a sanitizer checks the process, objects handed to
  /// ``keepUntilExit(_:)`` then live until ``exit(_:)`` ends the process.
  public static func endsWithoutTeardown(environment: [String: String]) {
    let asked = !(environment[teardownVariable] ?? "").isEmpty
    skipsTeardown.store(!asked && !SanitizerRuntime.isLinked, ordering: .relaxed)
  }

  /// Keeps `object` (a map a one-shot command drew with) alive until the process exits, when
  /// the executable ends without teardown; otherwise does nothing. Never hand it objects of a
  /// command that keeps running (a server, a batch), which would then hold every one.
  static func keepUntilExit(_ object: AnyObject) {
    guard skipsTeardown.load(ordering: .relaxed) else { return }
    // One retain never balanced: the object outlives every reference the command drops.
    let address = UInt(bitPattern: Unmanaged.passRetained(object).toOpaque())
    kept.withLock { $0.append(address) }
  }

  /// How many objects are kept until the process exits.
  static var keptCount: Int { kept.withLock { $0.count } }

  /// Ends the process with `status`: without teardown (C standard streams flushed for any
  /// library that printed through them, the service's temporary files removed, then `_exit`)
  /// when the executable asked for it, else through `exit` and its handlers.
  public static func exit(_ status: Int32) -> Never {
    guard skipsTeardown.load(ordering: .relaxed) else { Foundation.exit(status) }
    fflush(nil)
    ServiceConfiguration.removeTemporaryFiles()
    _exit(status)
  }
}
