import Glibc
import TesseraNumbers

/// Whether a sanitizer's runtime (address, thread, memory, undefined behaviour) is linked into
/// the process: such a process is being checked, so start-up and exit shortcuts that would
/// hide something from the checker (a deep-bound driver, an exit without teardown) stay off.
package enum SanitizerRuntime {
  /// Looked up once: the runtimes' entry points among the process's symbols.
  package static let isLinked: Bool = {
    let process = dlopen(nil, RTLD_NOW)
    defer { if let process { dlclose(process) } }
    let runtimes: [String] = ["__asan_init", "__tsan_init", "__msan_init", "__ubsan_handle_add_overflow"]
    return runtimes.contains { name in dlsym(process, name) != nil }
  }()
}
