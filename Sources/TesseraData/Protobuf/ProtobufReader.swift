import TesseraNumbers

/// A bounds-checked reader of protocol buffer wire format (proto2/proto3), over a byte buffer.
///
/// Every read checks the remaining length; malformed input (a varint longer than ten bytes, a
/// length past the end, an unknown wire type) throws ``ProtobufError`` with the byte offset.
struct ProtobufReader {
  /// Wire types of the protobuf encoding.
  enum WireType: UInt64 {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
  }

  private let bytes: UnsafeRawBufferPointer
  private(set) var offset: Int
  private let end: Int

  /// A reader over `bytes[range]`; the buffer must outlive the reader.
  init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>? = nil) {
    self.bytes = bytes
    offset = range?.lowerBound ?? 0
    end = range?.upperBound ?? bytes.count
  }

  /// Whether everything has been read.
  var isAtEnd: Bool { offset >= end }

  /// Reads a field key: its number and wire type.
  mutating func readKey() throws(ProtobufError) -> (field: UInt64, wireType: WireType) {
    let key = try readVarint()
    guard let wireType = WireType(rawValue: key & 7) else {
      throw ProtobufError(offset: offset, reason: "unsupported wire type \(key & 7)")
    }
    guard key >> 3 > 0 else { throw ProtobufError(offset: offset, reason: "field number 0") }
    return (key >> 3, wireType)
  }

  /// Reads a base-128 varint.
  mutating func readVarint() throws(ProtobufError) -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard offset < end else { throw ProtobufError(offset: offset, reason: "varint runs past the end") }
      let byte = bytes[offset]
      offset += 1
      result |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return result }
      shift += 7
      guard shift < 64 else { throw ProtobufError(offset: offset, reason: "varint longer than 10 bytes") }
    }
  }

  /// Reads a zigzag-encoded signed varint.
  mutating func readSignedVarint() throws(ProtobufError) -> Int64 {
    ProtobufReader.zigzagDecode(try readVarint())
  }

  /// Decodes zigzag encoding (0, −1, 1, −2, … ← 0, 1, 2, 3, …).
  static func zigzagDecode(_ value: UInt64) -> Int64 {
    Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
  }

  /// Reads the length prefix of a length-delimited field and returns its byte range.
  mutating func readLengthDelimited() throws(ProtobufError) -> Range<Int> {
    let length = try readVarint()
    guard length <= UInt64(end - offset) else {
      throw ProtobufError(offset: offset, reason: "length \(length) runs past the end (\(end - offset) bytes left)")
    }
    let range = offset..<offset + Int(length)
    offset += Int(length)
    return range
  }

  /// Reads a UTF-8 string field.
  mutating func readString() throws(ProtobufError) -> String {
    let range = try readLengthDelimited()
    guard let text = String(validating: bytes[range], as: UTF8.self) else {
      throw ProtobufError(offset: range.lowerBound, reason: "string is not valid UTF-8")
    }
    return text
  }

  /// Reads 4 little-endian bytes.
  mutating func readFixed32() throws(ProtobufError) -> UInt32 {
    guard end - offset >= 4 else { throw ProtobufError(offset: offset, reason: "fixed32 runs past the end") }
    var value: UInt32 = 0
    for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * UInt32(index)) }
    offset += 4
    return value
  }

  /// Reads 8 little-endian bytes.
  mutating func readFixed64() throws(ProtobufError) -> UInt64 {
    guard end - offset >= 8 else { throw ProtobufError(offset: offset, reason: "fixed64 runs past the end") }
    var value: UInt64 = 0
    for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
    offset += 8
    return value
  }

  /// Skips a field of the given wire type.
  mutating func skip(_ wireType: WireType) throws(ProtobufError) {
    switch wireType {
    case .varint: _ = try readVarint()
    case .fixed64: _ = try readFixed64()
    case .lengthDelimited: _ = try readLengthDelimited()
    case .fixed32: _ = try readFixed32()
    }
  }

  /// Reads a packed repeated varint field (or a single unpacked value) and hands each value to
  /// `body`.
  mutating func readPackedVarints(
    _ wireType: WireType, _ body: (UInt64) throws(ProtobufError) -> Void
  ) throws(ProtobufError) {
    if wireType == .varint {
      try body(try readVarint())
      return
    }
    guard wireType == .lengthDelimited else {
      throw ProtobufError(offset: offset, reason: "expected a packed varint field")
    }
    let range = try readLengthDelimited()
    var inner = ProtobufReader(bytes, range: range)
    while !inner.isAtEnd { try body(try inner.readVarint()) }
  }
}

/// Malformed protobuf data.
struct ProtobufError: Error, Equatable {
  /// Byte offset of the problem.
  let offset: Int
  let reason: String
}
