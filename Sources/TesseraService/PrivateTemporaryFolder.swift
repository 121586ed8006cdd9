import Foundation
import Synchronization
import TesseraNumbers

/// A folder under the system's temporary folder that belongs to this process alone, for files
/// the service writes and reads again (the resolved styles of a tileserver-gl config).
///
/// It is made by `mkdtemp` (mode 0700 and a random name, made atomically: no other user can
/// make it first, link it elsewhere or enter it) and held open for the life of the process:
/// ``path()`` names it through that descriptor (`/proc/self/fd/N`), so what is written and
/// read there is in that very folder even if its name in the shared temporary folder is
/// removed and made again by someone else. When its name was removed, the next ``path()``
/// makes a new folder; the old descriptor stays open, so paths given before lead nowhere
/// rather than to whatever might take its number. (Where `/proc` is not mounted, paths use
/// the name.) A process killed before it could remove its folder leaves it.
///
/// `exit` removes the process's (``shared``); the `tessera` executable, which ends with
/// `_exit`, removes it itself (``ServiceConfiguration/removeTemporaryFiles()``), after which
/// ``path()`` refuses.
final class PrivateTemporaryFolder: Sendable {
  /// The process's folder.
  static let shared = PrivateTemporaryFolder(removedAtExit: true)

  private struct Made {
    /// The name made in the temporary folder.
    let name: String
    /// The folder held open.
    let descriptor: Int32
    /// The folder's inode (to remove the name only while it is still this folder).
    let inode: ino_t
  }

  private struct State {
    /// Every folder made, the one in use last.
    var made: [Made] = []
    var closed = false
    var reads = 0
  }

  private let state = Mutex(State())
  /// Whether `exit` is to remove it.
  private let removedAtExit: Bool
  private let registered = Atomic<Bool>(false)

  init(removedAtExit: Bool = false) {
    self.removedAtExit = removedAtExit
  }

  deinit {
    remove()
  }

  /// The folder, through its open descriptor where `/proc` shows it; made now if the process
  /// has none or the name of the one made was removed.
  func path() throws(ConfigurationError) -> String {
    let result: Result<String, ConfigurationError> = state.withLock { state in
      if state.closed {
        let reason = "removed for good (the process is ending)"
        return .failure(ConfigurationError(source: "temporary folder", reason: reason))
      }
      if let made = state.made.last {
        var status = stat()
        if fstat(made.descriptor, &status) == 0, status.st_nlink > 0 { return .success(Self.reference(made)) }
      }
      let template = FileManager.default.temporaryDirectory.path + "/tessera-\(getpid())-XXXXXX"
      var characters = Array(template.utf8CString)
      guard characters.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
        return .failure(Self.failure(template, "cannot make a private temporary folder"))
      }
      let name = String(decoding: characters.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let descriptor = open(name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      var status = stat()
      guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
        if descriptor >= 0 { close(descriptor) }
        rmdir(name)
        return .failure(Self.failure(name, "cannot open the private temporary folder"))
      }
      let made = Made(name: name, descriptor: descriptor, inode: status.st_ino)
      state.made.append(made)
      return .success(Self.reference(made))
    }
    if removedAtExit, !registered.exchange(true, ordering: .relaxed) {
      atexit { PrivateTemporaryFolder.shared.remove() }
    }
    return try result.get()
  }

  /// A number not given before by this folder, for a folder of one read of a config.
  func nextRead() -> Int {
    state.withLock { state in
      state.reads += 1
      return state.reads
    }
  }

  /// Removes the folders made and everything in them (each name only while it still names
  /// the folder made); ``path()`` refuses from then on: the process is ending.
  func remove() {
    state.withLock { state in
      state.closed = true
      for made in state.made {
        var status = stat()
        if lstat(made.name, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_ino == made.inode {
          try? FileManager.default.removeItem(atPath: made.name)
        }
      }
    }
  }

  /// How paths inside `made` are written: through its descriptor when `/proc` is mounted.
  private static func reference(_ made: Made) -> String {
    let viaDescriptor = "/proc/self/fd/\(made.descriptor)"
    var status = stat()
    guard stat(viaDescriptor, &status) == 0, status.st_ino == made.inode else { return made.name }
    return viaDescriptor
  }

  private static func failure(_ path: String, _ what: String) -> ConfigurationError {
    ConfigurationError(source: path, reason: "\(what): \(String(cString: strerror(errno)))")
  }
}

/// The folder of one read of a tileserver-gl config's resolved styles, inside the process's
/// ``PrivateTemporaryFolder``: removed when the last configuration holding it is released (a
/// reload's configuration replaces the one before once the requests under way on it are
/// answered; a read that fails releases its own at once).
package final class ResolvedStylesFolder: Sendable {
  /// The folder, inside the private one.
  package let path: String

  /// Makes a new folder for one read of the config whose resolved styles begin with `prefix`.
  init(in folder: PrivateTemporaryFolder = .shared, prefix: String) throws(ConfigurationError) {
    let root = try folder.path()
    path = root + "/" + prefix + String(folder.nextRead())
    // Not the folders above it: the private folder is made by mkdtemp or not at all.
    guard mkdir(path, 0o700) == 0 else {
      throw ConfigurationError(
        source: path, reason: "cannot make the folder of the resolved styles: \(String(cString: strerror(errno)))")
    }
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
