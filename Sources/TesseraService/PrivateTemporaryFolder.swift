import Foundation
import Synchronization
import TesseraNumbers

/// A folder under the system's temporary folder that belongs to this process alone, made on
/// first use by `mkdtemp` (mode 0700 and a random name, made atomically: no other user can make
/// it first, link it elsewhere or enter it).
///
/// Files the service writes and reads again (the resolved styles of a tileserver-gl config)
/// go here rather than under a predictable name in a shared `/tmp`, where another user could
/// make the folder first and swap the files between their writing and their reading.
/// `exit` removes it; the `tessera` executable, which ends with `_exit`, removes it itself
/// (``ServiceConfiguration/removeTemporaryFiles()``).
enum PrivateTemporaryFolder {
  /// The folder made, while it exists.
  private static let made = Mutex<String?>(nil)
  /// Whether `exit` has been asked to remove it.
  private static let removedAtExit = Atomic<Bool>(false)

  /// The folder, made now if the process has none.
  static func path() throws(ConfigurationError) -> String {
    let result: Result<String, ConfigurationError> = made.withLock { made in
      if let made { return .success(made) }
      let template = FileManager.default.temporaryDirectory.path + "/tessera-\(getpid())-XXXXXX"
      var characters = Array(template.utf8CString)
      guard characters.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
        let reason = String(cString: strerror(errno))
        return .failure(
          ConfigurationError(source: template, reason: "cannot make a private temporary folder: \(reason)"))
      }
      let path = String(decoding: characters.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
      made = path
      return .success(path)
    }
    if !removedAtExit.exchange(true, ordering: .relaxed) { atexit { PrivateTemporaryFolder.remove() } }
    return try result.get()
  }

  /// Removes the folder and everything in it; the next ``path()`` makes a new one.
  static func remove() {
    made.withLock { made in
      if let folder = made { try? FileManager.default.removeItem(atPath: folder) }
      made = nil
    }
  }
}
