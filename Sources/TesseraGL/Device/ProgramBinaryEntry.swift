import TesseraNumbers

/// One linked program as the program binary cache keeps it in a file: what it was built from
/// (the key) and what the driver gave back (`glGetProgramBinary`'s format and bytes).
///
/// Layout, integers little-endian: the magic `TESSERA-GL-PROGRAM 1\n`, the key's length (UInt32)
/// and its UTF-8 bytes, the binary's format (UInt32), the binary's length (UInt32) and its bytes,
/// nothing after. A file whose key is not exactly the one asked for is another program's (or
/// another driver's) and is not used, so a hash collision of file names cannot mix programs up.
struct ProgramBinaryEntry: Equatable {
  /// The driver strings and the program's sources: see ``ProgramBinaryCache/key(driver:vertex:fragment:)``.
  let key: String
  /// The binary's format, as `glGetProgramBinary` reported it.
  let format: UInt32
  /// The binary, as the driver gave it.
  let binary: [UInt8]

  static let magic = Array("TESSERA-GL-PROGRAM 1\n".utf8)

  /// The file's bytes.
  func encoded() -> [UInt8] {
    let keyBytes = Array(key.utf8)
    var bytes = Self.magic
    bytes.reserveCapacity(Self.magic.count + 12 + keyBytes.count + binary.count)
    ByteReader.append(UInt32(keyBytes.count), to: &bytes)
    bytes += keyBytes
    ByteReader.append(format, to: &bytes)
    ByteReader.append(UInt32(binary.count), to: &bytes)
    bytes += binary
    return bytes
  }

  /// Reads a file's bytes; nil when they are not one whole entry for `key` (another key, a
  /// truncated or extended file, a wrong magic, an empty binary).
  init?(decoding bytes: [UInt8], key: String) {
    var reader = ByteReader(bytes)
    guard reader.take(Self.magic.count)?.elementsEqual(Self.magic) == true, let keyLength = reader.uint32(),
      let keyBytes = reader.take(Int(keyLength)), keyBytes.elementsEqual(key.utf8),
      let format = reader.uint32(), let binaryLength = reader.uint32(), binaryLength > 0,
      let binary = reader.take(Int(binaryLength)), reader.isAtEnd
    else { return nil }
    self.init(key: key, format: format, binary: Array(binary))
  }

  init(key: String, format: UInt32, binary: [UInt8]) {
    self.key = key
    self.format = format
    self.binary = binary
  }
}
