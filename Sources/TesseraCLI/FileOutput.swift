import Foundation
import TesseraNumbers

/// Reading inputs and writing outputs safely; errors name the path and say what is wrong.
///
/// Writing replaces a regular file with the whole new contents at once (a temporary file in
/// the same folder, renamed over it), keeping the file's permissions. A symbolic link is never
/// written through: it is refused, so an output cannot reach a file elsewhere by a link planted
/// in its place. A file with several hard links is rewritten in place, so every name keeps
/// seeing it. Anything that is not a regular file (a folder, a FIFO, a device, a socket) is
/// refused, as are empty names and missing folders. Commands check outputs against their
/// inputs with ``OutputGuard`` first.
enum FileOutput {
  static func write(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
    guard !path.isEmpty else { throw CommandFailure("cannot write: the output file name is empty") }
    let target = path
    var status = stat()
    if lstat(target, &status) == 0 {
      guard status.st_mode & S_IFMT != S_IFLNK else {
        throw CommandFailure("cannot write \(path): it is a symbolic link; refusing to write through it")
      }
      guard status.st_mode & S_IFMT == S_IFREG else {
        throw CommandFailure("cannot write \(path): it is \(kind(status.st_mode)), not a regular file")
      }
      if status.st_nlink > 1 {
        try writeInPlace(bytes, to: target, shownAs: path)
      } else {
        try replace(target, with: bytes, mode: status.st_mode & 0o7777, shownAs: path)
      }
      return
    }
    let folder = (target as NSString).deletingLastPathComponent
    var folderStatus = stat()
    guard stat(folder.isEmpty ? "." : folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR else {
      throw CommandFailure("cannot write \(path): the folder \(folder.isEmpty ? "." : folder) does not exist")
    }
    try replace(target, with: bytes, mode: nil, shownAs: path)
  }

  static func read(_ path: String) throws(CommandFailure) -> [UInt8] {
    guard !path.isEmpty else { throw CommandFailure("cannot read: the file name is empty") }
    var status = stat()
    guard stat(path, &status) == 0 else {
      throw CommandFailure("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      throw CommandFailure("cannot read \(path): it is \(kind(status.st_mode)), not a regular file")
    }
    do {
      return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw CommandFailure("cannot read \(path): \((error as NSError).localizedDescription)")
    }
  }

  /// Refuses outputs that are one of the inputs (or one another): `outputs` and `inputs` as
  /// (what names it, path), for example ("--output", "scene.json").
  static func refuseOverwriting(_ outputs: [(String, String)], inputs: [(String, String)]) throws(UsageError) {
    for (index, output) in outputs.enumerated() {
      for input in inputs + outputs[..<index] where sameFile(output.1, input.1) {
        throw UsageError("\(output.0) \(output.1) is also \(input.0): refusing to overwrite it")
      }
    }
  }

  /// Whether two paths name the same file (an existing file by device and inode, else the
  /// same absolute path).
  static func sameFile(_ a: String, _ b: String) -> Bool {
    var first = stat()
    var second = stat()
    if stat(a, &first) == 0, stat(b, &second) == 0 {
      return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
    let cwd = FileManager.default.currentDirectoryPath
    return URL(fileURLWithPath: a, relativeTo: URL(fileURLWithPath: cwd)).standardizedFileURL.path
      == URL(fileURLWithPath: b, relativeTo: URL(fileURLWithPath: cwd)).standardizedFileURL.path
  }

  /// Writes to a temporary file beside `target` and renames it over `target`, with `mode`
  /// (the replaced file's permissions) when given.
  private static func replace(_ target: String, with bytes: [UInt8], mode: mode_t?, shownAs path: String)
    throws(CommandFailure)
  {
    let folder = (target as NSString).deletingLastPathComponent
    let temporary =
      (folder.isEmpty ? "." : folder)
      + "/.\((target as NSString).lastPathComponent).tessera-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else {
      throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    var failure = writeAll(bytes, to: descriptor)
    if failure == nil, let mode, fchmod(descriptor, mode) != 0 { failure = errno }
    if close(descriptor) != 0 && failure == nil { failure = errno }
    if failure == nil, rename(temporary, target) != 0 { failure = errno }
    if let failure {
      unlink(temporary)
      throw CommandFailure("cannot write \(path): \(String(cString: strerror(failure)))")
    }
  }

  /// Rewrites `target` in place (truncated, then written), keeping its inode.
  private static func writeInPlace(_ bytes: [UInt8], to target: String, shownAs path: String) throws(CommandFailure) {
    let descriptor = open(target, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else {
      throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    var failure = writeAll(bytes, to: descriptor)
    if close(descriptor) != 0 && failure == nil { failure = errno }
    if let failure { throw CommandFailure("cannot write \(path): \(String(cString: strerror(failure)))") }
  }

  /// Writes every byte; the errno of a failure, or nil.
  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        Foundation.write(descriptor, buffer.baseAddress! + written, bytes.count - written)
      }
      if result < 0 {
        if errno == EINTR { continue }
        return errno
      }
      written += result
    }
    return nil
  }

  /// What a file of this mode is, in words.
  private static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR, S_IFBLK: return "a device"
    case S_IFSOCK: return "a socket"
    default: return "not a regular file"
    }
  }
}
