#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder only this user may change, for files kept between processes (caches): opened
/// once, files opened relative to it, read and written whole.
package enum PrivateFolder {
  /// Opens `path` as a folder, making it (`0700`) when it is absent, and with
  /// `makingParents` the folders above it that are absent too (`~/.cache` on a fresh
  /// account); nil when it cannot be made or opened, is a link at its last component, is not
  /// this user's or others may write to it, or the path is not absolute or ends in a slash.
  /// The caller closes the descriptor.
  package static func descriptor(_ path: String, makingParents: Bool = false) -> Int32? {
    // Absolute paths only, without a trailing slash (which would have `open` follow a link).
    guard path.hasPrefix("/"), !path.hasSuffix("/") else { return nil }
    if makingParents {
      var parent = ""
      for component in path.split(separator: "/").dropLast() {
        parent += "/" + component
        mkdir(parent, 0o700)
      }
    }
    if mkdir(path, 0o700) != 0, errno != EEXIST { return nil }
    let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard folder >= 0 else { return nil }
    var status = stat()
    guard fstat(folder, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else {
      close(folder)
      return nil
    }
    return folder
  }

  /// The bytes of the file `name` in `folder` (a descriptor from ``descriptor(_:)``) when it is a
  /// regular file of this user's of 1 to `largest` bytes, read whole; nil otherwise. A link
  /// is not followed, and a FIFO does not block the caller.
  package static func contents(of name: String, in folder: Int32, atMost largest: Int) -> [UInt8]? {
    let file = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var status = stat()
    guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
      status.st_size > 0, status.st_size <= largest
    else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
    let complete = bytes.withUnsafeMutableBytes { buffer in
      whole(buffer.count) { done in read(file, buffer.baseAddress! + done, buffer.count - done) }
    }
    return complete ? bytes : nil
  }

  /// Replaces the file `name` in `folder` with `bytes`: written whole under the name
  /// `temporary` (made anew, `0600`), then renamed, so that no reader sees half a file; false
  /// when it could not be (the temporary file is then removed).
  package static func replace(_ name: String, in folder: Int32, with bytes: [UInt8], temporary: String) -> Bool {
    let file = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard file >= 0 else { return false }
    let written = bytes.withUnsafeBytes { buffer in
      whole(buffer.count) { done in write(file, buffer.baseAddress! + done, buffer.count - done) }
    }
    guard close(file) == 0, written, renameat(folder, temporary, folder, name) == 0 else {
      unlinkat(folder, temporary, 0)
      return false
    }
    return true
  }

  /// The names of the entries in `folder` (files whose names end in `suffix`), the one modified
  /// longest ago first; removes temporary files (names starting with a dot) older than
  /// `seconds`, which an interrupted process left.
  package static func entriesOldestFirst(
    in folder: Int32, suffix: String, removingTemporaryFilesOlderThan seconds: Int
  ) -> [String] {
    // A descriptor of its own: copies made with `dup` share one read position between threads.
    let descriptor = openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    guard let listing = fdopendir(descriptor) else {
      close(descriptor)
      return []
    }
    defer { closedir(listing) }
    var entries: [(name: String, seconds: Int, nanoseconds: Int)] = []
    let now = time(nil)
    while let item = readdir(listing) {
      let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      var status = stat()
      guard name.hasSuffix(suffix) || name.hasPrefix("."), name != ".", name != "..",
        fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0
      else { continue }
      if name.hasPrefix(".") {
        if now - status.st_mtim.tv_sec > seconds { unlinkat(folder, name, 0) }
        continue
      }
      entries.append((name, status.st_mtim.tv_sec, status.st_mtim.tv_nsec))
    }
    return entries.sorted { ($0.seconds, $0.nanoseconds, $0.name) < ($1.seconds, $1.nanoseconds, $1.name) }.map(\.name)
  }

  /// Repeats `step` (a `read` or `write` of the bytes from the offset it is given, returning
  /// the count moved) until `count` bytes have moved; false at an error or the file's end.
  private static func whole(_ count: Int, _ step: (Int) -> Int) -> Bool {
    var done = 0
    while done < count {
      let moved = step(done)
      if moved < 0, errno == EINTR { continue }
      guard moved > 0 else { return false }
      done += moved
    }
    return true
  }
}
