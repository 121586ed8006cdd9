import CTesseraCodecs
import CZlib
import Dispatch
import Synchronization
import TesseraNumbers

/// A fast PNG encoder for rendered frames: RGBA, the `Up` filter on every row, a deflate
/// compressor made for rendered maps (`png_deflate.c`: matches one byte or one pixel back,
/// dynamic Huffman codes; about 1.5× zlib level 1 `Z_RLE`'s speed for 5–15% smaller files),
/// and the rows split into bands that are filtered and compressed on all cores at once.
///
/// Each band is raw deflate ending byte-aligned (the last one finishes the stream), so the
/// bands joined one after another form a single zlib stream, whose Adler-32 checksum is
/// combined from the bands'. Band heights depend only on the image size, never on the number
/// of cores, and the compressor's output only on its input, so the same image always gives the
/// same bytes on any machine. Premultiplied pixels are converted to straight alpha row by row
/// while filtering.
enum BandedPNGEncoder {
  /// The most raw (filtered) bytes in one band: large enough that restarting the compressor
  /// per band costs little compression.
  static let maxBandBytes = 512 * 1024
  /// Bands aimed for in a smaller image, so that even thumbnails use several cores.
  static let minBandCount = 8

  /// Rows per band for an image of `width` × `height` pixels: an eighth of the rows, at least
  /// 16 and at most what fits ``maxBandBytes`` (a function of the size alone, so the bytes of a
  /// file never depend on the machine).
  static func rowsPerBand(width: Int, height: Int) -> Int {
    let fitting = max(16, maxBandBytes / (width * 4 + 1))
    return min(max(16, (height + minBandCount - 1) / minBandCount), fitting)
  }

  /// Encodes `image` (either alpha representation) as a PNG file.
  static func encode(_ image: RGBAImage) throws(ImageError) -> [UInt8] {
    let width = image.width
    let height = image.height
    guard width > 0, height > 0, width <= 1 << 24, height <= 1 << 24 else {
      throw ImageError.encode(format: .png, reason: "cannot encode a \(width)x\(height) image")
    }
    let bandRows = rowsPerBand(width: width, height: height)
    let bandCount = (height + bandRows - 1) / bandRows
    let bands = BandResults(count: bandCount)
    let premultiplied = image.alpha == .premultiplied
    image.pixels.withUnsafeBufferPointer { pixels in
      let source = UnsafeSendablePointer(pixels.baseAddress!)
      DispatchQueue.concurrentPerform(iterations: bandCount) { band in
        let firstRow = band * bandRows
        let rows = min(bandRows, height - firstRow)
        bands.store(
          band,
          compressBand(
            source.pointer, width: width, firstRow: firstRow, rows: rows, isLast: band == bandCount - 1,
            premultiplied: premultiplied))
      }
    }
    var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    var header: [UInt8] = []
    appendBigEndian(UInt32(width), to: &header)
    appendBigEndian(UInt32(height), to: &header)
    // 8 bits per channel, colour type 6 (RGBA), deflate, adaptive filtering, no interlace.
    header += [8, 6, 0, 0, 0]
    appendChunk("IHDR", header, to: &file)
    var adler: UInt = 1
    var stream: [UInt8] = [0x78, 0x01]
    for band in 0..<bandCount {
      guard let result = bands.result(band) else {
        throw ImageError.encode(format: .png, reason: "no memory to compress rows of band \(band)")
      }
      adler = UInt(adler32_combine(uLong(adler), uLong(result.adler), Int(result.rawCount)))
      stream += result.deflated
    }
    appendBigEndian(UInt32(truncatingIfNeeded: adler), to: &stream)
    appendChunk("IDAT", stream, to: &file)
    appendChunk("IEND", [], to: &file)
    return file
  }

  /// One band's filtered rows compressed: raw deflate bytes, the rows' Adler-32 and their size.
  struct Band: Sendable {
    let deflated: [UInt8]
    let adler: UInt
    let rawCount: Int
  }

  /// Filters rows `firstRow ..< firstRow + rows` with `Up` (against the row above, also for a
  /// band's first row) and deflates them (`tessera_png_deflate_band`); nil when memory runs out.
  static func compressBand(
    _ pixels: UnsafePointer<UInt8>, width: Int, firstRow: Int, rows: Int, isLast: Bool, premultiplied: Bool
  ) -> Band? {
    var band = tessera_png_band()
    guard
      tessera_png_deflate_band(
        pixels, UInt32(truncatingIfNeeded: width), UInt32(truncatingIfNeeded: firstRow),
        UInt32(truncatingIfNeeded: rows), premultiplied ? 1 : 0, isLast ? 1 : 0, &band) == 0,
      let bytes = band.bytes
    else { return nil }
    defer { tessera_codec_free(bytes) }
    return Band(
      deflated: Array(UnsafeBufferPointer(start: bytes, count: band.size)), adler: UInt(band.adler),
      rawCount: band.raw_size)
  }

  static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
    appendBigEndian(UInt32(data.count), to: &file)
    let typeBytes = Array(type.utf8)
    var crc = typeBytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
    crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
    file += typeBytes
    file += data
    appendBigEndian(UInt32(truncatingIfNeeded: crc), to: &file)
  }

  static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
    bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }
}

/// A pointer handed to the band workers, which only read through it while the caller waits.
private struct UnsafeSendablePointer: @unchecked Sendable {
  let pointer: UnsafePointer<UInt8>
  init(_ pointer: UnsafePointer<UInt8>) { self.pointer = pointer }
}

/// The bands' results, written by the workers (one slot each) and read after they finish.
private final class BandResults: Sendable {
  private let slots: Mutex<[BandedPNGEncoder.Band?]>

  init(count: Int) {
    slots = Mutex(Array(repeating: nil, count: count))
  }

  func store(_ index: Int, _ band: BandedPNGEncoder.Band?) {
    slots.withLock { $0[index] = band }
  }

  func result(_ index: Int) -> BandedPNGEncoder.Band? {
    slots.withLock { $0[index] }
  }
}
