import Foundation
import Synchronization
import TesseraNumbers

/// Linked GL programs kept on disk between processes (`glGetProgramBinary`, `glProgramBinary`),
/// so that a process's first frame does not compile its programs from source.
///
/// Mesa's shader cache already keeps the compiled shaders, but building a program from source
/// still runs the GLSL front end, whose one-time set-up alone costs 5–7 ms in the first program
/// a process builds; a program loaded from its binary skips it (0.1–0.5 ms a program instead of
/// 0.2–6). The cache lives in `programs` inside the folder Tessera gives Mesa's shader cache
/// (``MesaEnvironment``), so it follows the same switches: one folder per configuration that
/// changes llvmpipe's code, and none when `MESA_SHADER_CACHE_DISABLE` is set.
///
/// Every file is one ``ProgramBinaryEntry`` whose key holds the driver's strings and the
/// program's two sources; a file is used only when its key is exactly the one asked for and the
/// driver accepts its binary (Mesa checks its own build and a checksum), else it is removed, the
/// program is compiled from source and its file written again. The folder must be a directory of
/// this user's that others cannot write to, reached without following a link at its last
/// component (it is made `0700` when absent); files are read only when they are regular files of
/// this user of at most ``largestEntry`` bytes, written whole under a temporary name and renamed
/// into place (processes sharing the folder never read half a file). At most ``capacity``
/// entries are kept: a new one replaces the one used longest ago (a file's modification time is
/// renewed when it is loaded), and temporary files an interrupted process left are removed.
/// Nothing here fails a render: any problem means compiling.
package final class ProgramBinaryCache: Sendable {
  /// The largest file read or written, in bytes (a map program's file, key included, is 5–25 KB;
  /// with ``capacity`` this bounds the folder at 1 GiB, Mesa's own cache's default, and in
  /// practice at a few MB).
  package static let largestEntry = 1 << 20

  /// The cache for this process's configuration: `programs` in Mesa's shader cache folder
  /// (made when absent); nil when Mesa's cache is off or that folder cannot be used.
  package static let shared: ProgramBinaryCache? = {
    MesaEnvironment.prepare()
    return MesaEnvironment.shaderCacheFolderInUse.flatMap { ProgramBinaryCache(path: $0 + "/programs") }
  }()

  /// What the cache did since it was opened.
  package struct Counts: Sendable, Equatable {
    /// Programs linked from a stored binary.
    package var loaded = 0
    /// Entries written.
    package var stored = 0
    /// Stored binaries the driver refused (the program was compiled instead).
    package var refused = 0

    package init(loaded: Int = 0, stored: Int = 0, refused: Int = 0) {
      self.loaded = loaded
      self.stored = stored
      self.refused = refused
    }
  }

  /// The folder's path.
  package let path: String
  /// The most entries the cache keeps in its folder.
  package let capacity: Int
  /// The folder, opened once: files are opened relative to it.
  private let folder: Int32
  private let tally = Mutex(Counts())
  private let temporaryNumbers = Atomic<Int>(0)

  /// Opens the cache in `path` (keeping at least one entry), making the folder (`0700`) when it
  /// is absent; nil when it cannot be made or opened, is a link, is not this user's or others
  /// may write to it.
  package init?(path: String, capacity: Int = 1024) {
    guard let folder = PrivateFolder.descriptor(path) else { return nil }
    self.path = path
    self.capacity = max(1, capacity)
    self.folder = folder
  }

  deinit { close(folder) }

  /// What the cache did so far.
  package var counts: Counts { tally.withLock { $0 } }

  /// The key of a program: `driver` (the device's strings, see ``DeviceInfo/programBinaryDriver``)
  /// and the program's vertex and fragment sources.
  package static func key(driver: String, vertex: String, fragment: String) -> String {
    driver + "\u{0}" + vertex + "\u{0}" + fragment
  }

  /// The file name of `key`'s entry: a 64-bit FNV-1a hash of it in 16 hex digits.
  static func fileName(for key: String) -> String {
    FNV1a.paddedHex(FNV1a.hash(key)) + ".program"
  }

  /// The stored entry for `key`, or nil (none, unreadable, another key's, damaged); a file
  /// read whole has its modification time renewed (it was used now).
  func entry(for key: String) -> ProgramBinaryEntry? {
    let name = Self.fileName(for: key)
    guard let bytes = PrivateFolder.contents(of: name, in: folder, atMost: Self.largestEntry),
      let entry = ProgramBinaryEntry(decoding: bytes, key: key)
    else { return nil }
    utimensat(folder, name, nil, AT_SYMLINK_NOFOLLOW)
    return entry
  }

  /// Writes `entry`, replacing the file of its key; when that file is new and the folder holds
  /// ``capacity`` entries, the entry used longest ago goes first. Entries larger than
  /// ``largestEntry`` are not written.
  func store(_ entry: ProgramBinaryEntry) {
    let bytes = entry.encoded()
    guard bytes.count <= Self.largestEntry else { return }
    let name = Self.fileName(for: entry.key)
    var existing = stat()
    if fstatat(folder, name, &existing, AT_SYMLINK_NOFOLLOW) != 0 {
      // Every entry beyond capacity − 1, oldest first: entries stores racing for the last place
      // added go again at the next store.
      let entries = PrivateFolder.entriesOldestFirst(
        in: folder, suffix: ".program", removingTemporaryFilesOlderThan: Self.abandonedAfter)
      for oldest in entries.dropLast(capacity - 1) { unlinkat(folder, oldest, 0) }
    }
    let temporary = ".\(name).\(getpid()).\(temporaryNumbers.add(1, ordering: .relaxed).newValue)"
    guard PrivateFolder.replace(name, in: folder, with: bytes, temporary: temporary) else { return }
    tally.withLock { $0.stored += 1 }
  }

  /// Removes `key`'s file: its binary was refused by the driver.
  func discard(_ key: String) {
    unlinkat(folder, Self.fileName(for: key), 0)
    tally.withLock { $0.refused += 1 }
  }

  /// Notes a program linked from its stored binary.
  func noteLoaded() { tally.withLock { $0.loaded += 1 } }

  /// How old a temporary file must be, in seconds, before a listing removes it as left behind.
  static let abandonedAfter = 600

}

/// A device's use of a ``ProgramBinaryCache``: the cache, the device's driver strings
/// (``DeviceInfo/programBinaryDriver``) and the binary formats its driver reads.
struct ProgramBinaries {
  let cache: ProgramBinaryCache
  let driver: String
  let formats: Set<UInt32>
}
