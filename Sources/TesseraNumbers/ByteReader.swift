/// Reads little-endian values from a byte array front to back; every read checks the bytes
/// left, and gives nil past the end (for files Tessera wrote and reads back: caches).
package struct ByteReader {
  package let bytes: [UInt8]
  package private(set) var offset = 0

  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Whether every byte has been read.
  package var isAtEnd: Bool { offset == bytes.count }

  /// The next `count` bytes, or nil when fewer are left.
  package mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
    guard count >= 0, count <= bytes.count - offset else { return nil }
    defer { offset += count }
    return bytes[offset..<offset + count]
  }

  /// The bytes not read yet.
  package mutating func rest() -> ArraySlice<UInt8> { take(bytes.count - offset) ?? [] }

  /// The next byte.
  package mutating func uint8() -> UInt8? { take(1)?.first }

  package mutating func uint32() -> UInt32? { take(4).map { $0.reversed().reduce(0) { $0 << 8 | UInt32($1) } } }

  package mutating func uint64() -> UInt64? { take(8).map { $0.reversed().reduce(0) { $0 << 8 | UInt64($1) } } }

  /// The next eight bytes as a signed number.
  package mutating func int64() -> Int? { uint64().map { Int(Int64(bitPattern: $0)) } }

  /// A string as the `String` form of ``append(_:to:)`` writes it: its UTF-8 length, then its
  /// bytes; nil when they are not UTF-8.
  package mutating func string() -> String? {
    guard let length = uint32(), let utf8 = take(Int(length)) else { return nil }
    return String(validating: utf8, as: UTF8.self)
  }

  /// The next four bytes as a signed number.
  package mutating func int32() -> Int? { uint32().map { Int(Int32(bitPattern: $0)) } }

  /// Appends `value`'s bytes, least significant first.
  package static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
  }

  /// Appends `text`: its UTF-8 length (four bytes), then its UTF-8.
  package static func append(_ text: String, to bytes: inout [UInt8]) {
    let utf8 = Array(text.utf8)
    append(UInt32(truncatingIfNeeded: utf8.count), to: &bytes)
    bytes += utf8
  }
}
