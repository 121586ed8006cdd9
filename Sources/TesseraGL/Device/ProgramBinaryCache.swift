import Foundation
import Synchronization

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
/// driver accepts its binary (Mesa checks its own build and a checksum), else the program is
/// compiled from source and its file written again. The folder must be a directory of this
/// user's that others cannot write to, reached without following a link at its last component
/// (it is made `0700` when absent); files are read only when they are regular files of this
/// user of at most ``largestEntry`` bytes, written whole under a temporary name and renamed
/// into place (processes sharing the folder never read half a file), and no more than
/// ``capacity`` entries are written. Nothing here fails a render: any problem means compiling.
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
  /// The most entries the cache writes into its folder.
  package let capacity: Int
  /// The folder, opened once: files are opened relative to it.
  private let folder: Int32
  private let tally = Mutex(Counts())
  private let temporaryNumbers = Atomic<Int>(0)

  /// Opens the cache in `path`, making the folder (`0700`) when it is absent; nil when it
  /// cannot be made or opened, is a link, is not this user's or others may write to it.
  package init?(path: String, capacity: Int = 1024) {
    if mkdir(path, 0o700) != 0, errno != EEXIST { return nil }
    let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard folder >= 0 else { return nil }
    var status = stat()
    guard fstat(folder, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else {
      close(folder)
      return nil
    }
    self.path = path
    self.capacity = capacity
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
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits + ".program"
  }

  /// The stored entry for `key`, or nil (none, unreadable, another key's, damaged).
  func entry(for key: String) -> ProgramBinaryEntry? {
    let file = openat(folder, Self.fileName(for: key), O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var status = stat()
    guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
      status.st_size > 0, status.st_size <= Self.largestEntry
    else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
    let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
      var done = 0
      while done < buffer.count {
        let count = read(file, buffer.baseAddress! + done, buffer.count - done)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        done += count
      }
      return true
    }
    guard complete else { return nil }
    return ProgramBinaryEntry(decoding: bytes, key: key)
  }

  /// Writes `entry` (replacing the file of its key) unless it is too large or the folder holds
  /// ``capacity`` entries already.
  func store(_ entry: ProgramBinaryEntry) {
    let bytes = entry.encoded()
    guard bytes.count <= Self.largestEntry, entryCount() < capacity else { return }
    let name = Self.fileName(for: entry.key)
    let temporary = ".\(name).\(getpid()).\(temporaryNumbers.add(1, ordering: .relaxed).newValue)"
    let file = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard file >= 0 else { return }
    let written = bytes.withUnsafeBytes { buffer -> Bool in
      var done = 0
      while done < buffer.count {
        let count = write(file, buffer.baseAddress! + done, buffer.count - done)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        done += count
      }
      return true
    }
    guard close(file) == 0, written, renameat(folder, temporary, folder, name) == 0 else {
      unlinkat(folder, temporary, 0)
      return
    }
    tally.withLock { $0.stored += 1 }
  }

  /// Notes a program linked from its stored binary.
  func noteLoaded() { tally.withLock { $0.loaded += 1 } }

  /// Notes a stored binary the driver refused.
  func noteRefused() { tally.withLock { $0.refused += 1 } }

  /// The entries (`*.program` files) in the folder now.
  private func entryCount() -> Int {
    let copy = dup(folder)
    guard copy >= 0, let listing = fdopendir(copy) else {
      if copy >= 0 { close(copy) }
      return Int.max
    }
    defer { closedir(listing) }
    rewinddir(listing)
    var count = 0
    while let item = readdir(listing) {
      let isEntry = withUnsafeBytes(of: item.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self).hasSuffix(".program")
      }
      if isEntry { count += 1 }
    }
    return count
  }
}
