import TesseraNumbers

/// The files of a zip archive (stored or deflated entries), read from its central directory;
/// every size and offset is checked against the archive, and each file is inflated with a
/// bound (zip bombs).
package struct ZipArchive: Sendable {
  /// An entry of the central directory.
  struct Entry: Sendable {
    let name: String
    let method: UInt16
    let compressedSize: Int
    let size: Int
    let headerOffset: Int
  }

  let bytes: [UInt8]
  let entries: [Entry]
  /// The most entries read.
  static let maximumEntries = 10_000

  /// The archive `bytes`, named `source` in errors.
  package init(_ bytes: [UInt8], source: String) throws(ZipError) {
    self.bytes = bytes
    func fail(_ reason: String) -> ZipError { ZipError(source: source, reason: reason) }
    // The end of central directory record: its signature within the last 64 KiB + 22 bytes.
    var end = -1
    var index = bytes.count - 22
    while index >= max(0, bytes.count - 65_557) {
      if Self.uint32(bytes, index) == 0x0605_4b50 {
        end = index
        break
      }
      index -= 1
    }
    guard end >= 0 else { throw fail("not a zip archive (no end of central directory)") }
    let count = Int(Self.uint16(bytes, end + 10))
    let directoryOffset = Int(Self.uint32(bytes, end + 16))
    guard count <= Self.maximumEntries else { throw fail("more than \(Self.maximumEntries) entries") }
    var entries: [Entry] = []
    var position = directoryOffset
    for _ in 0..<count {
      guard position >= 0, position + 46 <= bytes.count, Self.uint32(bytes, position) == 0x0201_4b50 else {
        throw fail("a central directory entry is damaged")
      }
      let nameLength = Int(Self.uint16(bytes, position + 28))
      let extraLength = Int(Self.uint16(bytes, position + 30))
      let commentLength = Int(Self.uint16(bytes, position + 32))
      guard position + 46 + nameLength <= bytes.count else { throw fail("an entry's name runs past the archive") }
      let name = String(decoding: bytes[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
      entries.append(
        Entry(
          name: name, method: Self.uint16(bytes, position + 10), compressedSize: Int(Self.uint32(bytes, position + 20)),
          size: Int(Self.uint32(bytes, position + 24)), headerOffset: Int(Self.uint32(bytes, position + 42))))
      position += 46 + nameLength + extraLength + commentLength
    }
    self.entries = entries
  }

  /// The names of the files (folders left out).
  package var names: [String] { entries.map(\.name).filter { !$0.hasSuffix("/") } }

  /// The contents of the file whose name is `name` or ends with `/name`; nil when there is
  /// none; throws when it cannot be read or inflates past `limit` bytes.
  package func file(named name: String, source: String, limit: Int = Gzip.defaultLimit) throws(ZipError) -> [UInt8]? {
    guard let entry = entries.first(where: { $0.name == name || $0.name.hasSuffix("/" + name) }) else { return nil }
    func fail(_ reason: String) -> ZipError { ZipError(source: source, reason: "\(entry.name): \(reason)") }
    let header = entry.headerOffset
    guard header >= 0, header + 30 <= bytes.count, Self.uint32(bytes, header) == 0x0403_4b50 else {
      throw fail("its local header is damaged")
    }
    let start = header + 30 + Int(Self.uint16(bytes, header + 26)) + Int(Self.uint16(bytes, header + 28))
    guard entry.compressedSize >= 0, start + entry.compressedSize <= bytes.count else {
      throw fail("its data runs past the archive")
    }
    let data = Array(bytes[start..<(start + entry.compressedSize)])
    switch entry.method {
    case 0:
      guard data.count <= limit else { throw fail("larger than \(limit) bytes") }
      return data
    case 8:
      do {
        return try Gzip.inflate(data, limit: limit, raw: true)
      } catch {
        throw fail("cannot be inflated (\(error))")
      }
    default:
      throw fail("compression method \(entry.method) (only stored and deflated entries are read)")
    }
  }

  static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
    guard at >= 0, at + 2 <= bytes.count else { return 0 }
    return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
  }

  static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    guard at >= 0, at + 4 <= bytes.count else { return 0 }
    return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
  }
}

/// A zip archive that cannot be read.
package struct ZipError: Error, Equatable, CustomStringConvertible {
  package let source: String
  package let reason: String
  package var description: String { "\(source): \(reason)" }
}
