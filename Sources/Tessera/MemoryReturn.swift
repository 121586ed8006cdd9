import Foundation
import Synchronization
import TesseraNumbers

/// glibc's `malloc_trim` (declared in `malloc.h`, which the Glibc module leaves out).
@_silgen_name("malloc_trim")
private func trimArenas(_ pad: Int) -> Int32

/// Gives memory freed by a large render back to the system. glibc's allocator keeps freed
/// memory in its arenas, so a process that once drew a huge frame would stay that large; after a
/// job, when the resident size has grown by more than ``threshold`` since the last time, the
/// arenas are trimmed (`malloc_trim`). Checking costs one read of `/proc/self/statm`.
enum MemoryReturn {
  /// Growth of the resident size, bytes, that makes a trim worth it.
  static let threshold = 256 << 20
  private static let baseline = Atomic<Int>(0)

  /// Trims the allocator's arenas when the process grew by more than ``threshold`` bytes since
  /// the last trim (or since the first call).
  static func afterJob() {
    guard let resident = residentBytes() else { return }
    let previous = baseline.load(ordering: .relaxed)
    if previous == 0 {
      baseline.store(resident, ordering: .relaxed)
      return
    }
    guard resident > previous + threshold else { return }
    _ = trimArenas(0)
    baseline.store(residentBytes() ?? resident, ordering: .relaxed)
  }

  /// The process's resident size in bytes (Linux), or nil.
  static func residentBytes() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .ascii) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}
