import CZlib
import TesseraNumbers

/// Writes an animated PNG (APNG) frame by frame.
///
/// Each frame is encoded as an ordinary PNG (``PNGCodec``, fast settings) and its image data is
/// re-wrapped: the first frame's `IDAT` chunks stay (so viewers without APNG support show the
/// first frame), later frames become `fdAT` chunks, each preceded by an `fcTL` chunk giving its
/// size and delay. Frames must all have the first frame's size. The animation loops forever.
public struct AnimatedPNGWriter {
  /// Frames per second; each frame shows for 1/fps seconds (stored in milliseconds).
  public let framesPerSecond: Double
  private var header: [UInt8]?
  private var width = 0
  private var height = 0
  private var frames: [[UInt8]] = []
  private var sequence: UInt32 = 0

  public init(framesPerSecond: Double) {
    self.framesPerSecond = framesPerSecond
  }

  /// The number of frames added so far.
  public var frameCount: Int { frames.count }

  /// Encodes and adds one frame.
  public mutating func add(_ image: RGBAImage) throws(ImageError) {
    if header == nil {
      width = image.width
      height = image.height
    } else if image.width != width || image.height != height {
      throw ImageError.encode(
        format: .png,
        reason: "animation frame \(frames.count) is \(image.width)x\(image.height), not \(width)x\(height)")
    }
    let png: [UInt8]
    do {
      png = try PNGCodec.encode(image)
    } catch {
      throw error as? ImageError ?? ImageError.encode(format: .png, reason: "\(error)")
    }
    var imageData: [[UInt8]] = []
    for chunk in PNGChunks(png) {
      if chunk.type == "IHDR" && header == nil { header = chunk.data }
      if chunk.type == "IDAT" { imageData.append(chunk.data) }
    }
    let isFirst = frames.isEmpty
    var encoded = chunk("fcTL", frameControl())
    for data in imageData {
      if isFirst {
        encoded += chunk("IDAT", data)
      } else {
        encoded += chunk("fdAT", bigEndian(nextSequence()) + data)
      }
    }
    frames.append(encoded)
  }

  /// The complete file.
  public func finish() throws(ImageError) -> [UInt8] {
    guard let header, !frames.isEmpty else {
      throw ImageError.encode(format: .png, reason: "an animation needs frames")
    }
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    file += chunk("IHDR", header)
    file += chunk("acTL", bigEndian(UInt32(frames.count)) + bigEndian(0))
    for frame in frames { file += frame }
    file += chunk("IEND", [])
    return file
  }

  private mutating func nextSequence() -> UInt32 {
    defer { sequence += 1 }
    return sequence
  }

  /// fcTL: sequence, size, offset (0, 0), delay (ms / 1000), dispose none, blend source.
  private mutating func frameControl() -> [UInt8] {
    let delay = UInt16(clamping: min(max((1000 / framesPerSecond).rounded(), 1), 65535))
    var data = bigEndian(nextSequence()) + bigEndian(UInt32(width)) + bigEndian(UInt32(height))
    data += bigEndian(0) + bigEndian(0)
    data += [UInt8(delay >> 8), UInt8(delay & 0xFF), 0x03, 0xE8, 0, 0]
    return data
  }

  private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typeBytes = Array(type.utf8)
    let crc = (typeBytes + data).withUnsafeBufferPointer { buffer in
      UInt32(crc32(0, buffer.baseAddress, UInt32(buffer.count)))
    }
    return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc)
  }

  private func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }
}

/// The chunks of a PNG file (type and data), in order; stops at the first malformed chunk.
struct PNGChunks: Sequence, IteratorProtocol {
  private let bytes: [UInt8]
  private var offset = 8

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  mutating func next() -> (type: String, data: [UInt8])? {
    guard offset + 12 <= bytes.count else { return nil }
    let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    let start = offset + 8
    guard start + length + 4 <= bytes.count else { return nil }
    let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
    offset = start + length + 4
    return (type, Array(bytes[start..<start + length]))
  }
}
