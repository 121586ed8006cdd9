import TesseraNumbers

/// Writes protocol buffer wire format into a byte array.
struct ProtobufWriter {
  private(set) var bytes: [UInt8] = []

  mutating func writeVarint(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(value & 0x7F) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  mutating func writeKey(_ field: UInt64, _ wireType: ProtobufReader.WireType) {
    writeVarint(field << 3 | wireType.rawValue)
  }

  /// Zigzag encoding of a signed value.
  static func zigzag(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: (value << 1) ^ (value >> 63))
  }

  mutating func writeVarintField(_ field: UInt64, _ value: UInt64) {
    writeKey(field, .varint)
    writeVarint(value)
  }

  mutating func writeBytesField(_ field: UInt64, _ data: [UInt8]) {
    writeKey(field, .lengthDelimited)
    writeVarint(UInt64(data.count))
    bytes += data
  }

  mutating func writeStringField(_ field: UInt64, _ text: String) {
    writeBytesField(field, Array(text.utf8))
  }

  mutating func writeFixed64Field(_ field: UInt64, _ value: UInt64) {
    writeKey(field, .fixed64)
    for index in 0..<8 { bytes.append(UInt8((value >> (8 * UInt64(index))) & 0xFF)) }
  }

  mutating func writePackedVarintsField(_ field: UInt64, _ values: [UInt64]) {
    var inner = ProtobufWriter()
    for value in values { inner.writeVarint(value) }
    writeBytesField(field, inner.bytes)
  }
}
