import TesseraNumbers

/// The `#pragma` lines of a shader source, found by scanning its UTF-8 bytes: only lines whose
/// first word (after leading spaces) starts with `#pragma` become text, every other byte is
/// copied as it is. Splitting whole sources into `Character`s and words cost about 0.3 ms a
/// program, paid by the rendering thread while a first frame waits for its programs.
enum PragmaLines {
  /// `source` with each line that starts (after spaces) with `#pragma` replaced by the lines
  /// `replacement` returns for it (none removes it), or kept where it returns nil. Lines end at
  /// `\n`; the result is the lines joined by `\n` again, so every other byte, empty lines and a
  /// final newline are kept.
  static func rewrite(_ source: String, _ replacement: (Substring) -> [String]?) -> String {
    var source = source
    return source.withUTF8 { bytes in
      var output: [UInt8] = []
      output.reserveCapacity(bytes.count)
      var firstLine = true
      func write<Line: Sequence<UInt8>>(_ line: Line) {
        if !firstLine { output.append(newline) }
        output.append(contentsOf: line)
        firstLine = false
      }
      var start = 0
      while start <= bytes.count {
        let end = lineEnd(bytes, from: start)
        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if startsWithPragma(line), let lines = replacement(Substring(String(decoding: line, as: UTF8.self))) {
          for text in lines { write(text.utf8) }
        } else {
          write(line)
        }
        start = end + 1
      }
      return String(decoding: output, as: UTF8.self)
    }
  }

  /// The lines of `source` that start (after spaces) with `#pragma`, in order.
  static func lines(of source: String) -> [Substring] {
    var source = source
    return source.withUTF8 { bytes in
      var found: [Substring] = []
      var start = 0
      while start < bytes.count {
        let end = lineEnd(bytes, from: start)
        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if startsWithPragma(line) { found.append(Substring(String(decoding: line, as: UTF8.self))) }
        start = end + 1
      }
      return found
    }
  }

  private static let newline = UInt8(ascii: "\n")
  private static let pragma = Array("#pragma".utf8)

  /// The index of the newline ending the line that begins at `start`, or the end of `bytes`.
  private static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var end = start
    while end < bytes.count, bytes[end] != newline { end += 1 }
    return end
  }

  /// Whether `line`'s first non-space bytes are `#pragma`.
  private static func startsWithPragma(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    var first = 0
    while first < line.count, line[first] == UInt8(ascii: " ") { first += 1 }
    guard line.count - first >= pragma.count else { return false }
    for (offset, byte) in pragma.enumerated() where line[first + offset] != byte { return false }
    return true
  }
}
