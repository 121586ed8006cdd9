import TesseraImage
import Testing

@Suite struct AnimatedPNGTests {
  /// The chunk types and data of a PNG file, with CRCs checked.
  static func chunks(_ bytes: [UInt8]) -> [(String, [UInt8])] {
    var result: [(String, [UInt8])] = []
    var offset = 8
    while offset + 12 <= bytes.count {
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      let data = Array(bytes[offset + 8..<offset + 8 + length])
      let crc = bytes[offset + 8 + length..<offset + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      #expect(crc == CRC32.checksum(Array(type.utf8) + data), "CRC of \(type)")
      result.append((type, data))
      offset += 12 + length
    }
    return result
  }

  @Test func writesAValidAnimationWhoseFirstFrameDecodes() throws {
    var writer = AnimatedPNGWriter(framesPerSecond: 20)
    let colours: [Color] = [.black, .white, Color(r: 200, g: 10, b: 10)]
    for colour in colours { try writer.add(RGBAImage(width: 30, height: 20, fill: colour)) }
    let file = try writer.finish()
    let types = AnimatedPNGTests.chunks(file).map(\.0)
    #expect(types.first == "IHDR" && types[1] == "acTL" && types.last == "IEND")
    #expect(types.filter { $0 == "fcTL" }.count == 3)
    #expect(types.contains("IDAT") && types.contains("fdAT"))
    let control = AnimatedPNGTests.chunks(file).first { $0.0 == "acTL" }!.1
    #expect(control[0..<4] == [0, 0, 0, 3])
    // Sequence numbers of fcTL and fdAT run 0, 1, 2, … without gaps.
    let sequences = AnimatedPNGTests.chunks(file).filter { $0.0 == "fcTL" || $0.0 == "fdAT" }.map {
      $0.1[0..<4].reduce(0) { $0 << 8 | Int($1) }
    }
    #expect(sequences == Array(0..<sequences.count))
    // 1/20 s = 50 ms.
    let frameControl = AnimatedPNGTests.chunks(file).first { $0.0 == "fcTL" }!.1
    #expect(frameControl[20..<24] == [0, 50, 0x03, 0xE8])
    // Viewers without APNG support see the first frame.
    let first = try PNGCodec.decode(file, source: "animation")
    #expect(first.isUniform && first.pixel(x: 0, y: 0) == (0, 0, 0, 255))
  }

  @Test func framesMustShareTheFirstFramesSize() throws {
    var writer = AnimatedPNGWriter(framesPerSecond: 10)
    try writer.add(RGBAImage(width: 4, height: 4, fill: .white))
    #expect(throws: ImageError.self) { try writer.add(RGBAImage(width: 5, height: 4, fill: .white)) }
    #expect(throws: ImageError.self) { try AnimatedPNGWriter(framesPerSecond: 10).finish() }
  }
}
