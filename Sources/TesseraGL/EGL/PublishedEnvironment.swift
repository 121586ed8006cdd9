import Glibc
import Synchronization
import TesseraNumbers

/// Changes to the process's environment that other threads may read meanwhile.
///
/// Mesa takes its settings only from environment variables (``MesaEnvironment``), and reads
/// them with `getenv` on whatever thread opens a display, makes a context or compiles a shader.
/// glibc's `setenv` is not safe beside such readers: adding a name grows the array of entries
/// with `realloc`, which may move it and free the old one while `getenv` on another thread
/// still walks it (glibc's manual marks `setenv` "MT-Unsafe const:env"). With glibc filling
/// freed memory, a reader then follows the filler as a pointer and the process stops with a
/// segmentation fault.
///
/// Here every change publishes a new array instead: the entries of the current one, with the
/// name added, replaced or left out, are copied into memory that is never freed, and
/// `environ` is pointed at the copy in one store. A reader walks either the old array or the
/// new one, and both stay valid for the process's lifetime. Each change keeps one array (the
/// entry pointers, 8 bytes each) and one entry's text; changes are rare (a display opened),
/// so what is kept stays small.
package enum PublishedEnvironment {
  /// Serialises writers; readers never wait.
  private static let writer = Mutex<Void>(())

  /// The process's `environ` variable (the C library's, which `getenv` reads), looked up by
  /// name: Swift imports it as a read-only value.
  private nonisolated(unsafe) static let variable = dlsym(nil, "environ")!.assumingMemoryBound(
    to: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?.self)

  /// Sets `name` to `value`, replacing an earlier value.
  package static func set(_ name: String, _ value: String) {
    writer.withLock { _ in publish(name: name, entry: strdup("\(name)=\(value)")) }
  }

  /// Removes `name` (nothing happens where it is not set).
  package static func remove(_ name: String) {
    writer.withLock { _ in publish(name: name, entry: nil) }
  }

  /// Publishes the current entries without `name`'s, followed by `entry` when it is not nil.
  private static func publish(name: String, entry: UnsafeMutablePointer<CChar>?) {
    let prefix = Array("\(name)=".utf8CString.dropLast())
    var kept: [UnsafeMutablePointer<CChar>?] = []
    if let current = variable.pointee {
      var index = 0
      while let existing = current[index] {
        if !hasPrefix(existing, prefix) { kept.append(existing) }
        index += 1
      }
    }
    if let entry { kept.append(entry) }
    kept.append(nil)
    let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: kept.count)
    array.initialize(from: kept, count: kept.count)
    // The entries must be visible before the pointer to them.
    atomicMemoryFence(ordering: .releasing)
    variable.pointee = array
  }

  /// Whether the C string `entry` begins with the bytes of `prefix`.
  private static func hasPrefix(_ entry: UnsafeMutablePointer<CChar>, _ prefix: [CChar]) -> Bool {
    for (offset, byte) in prefix.enumerated() where entry[offset] != byte { return false }
    return true
  }
}
