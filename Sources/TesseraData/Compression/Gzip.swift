import CZlib
import TesseraNumbers

/// gzip and zlib streams through zlib, with a bound on the inflated size (zip bombs).
package enum Gzip {
  /// The largest inflated size accepted by default: 64 MiB.
  package static let defaultLimit = 64 << 20

  /// Whether `bytes` start with the gzip magic number (1f 8b).
  package static func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
    var iterator = bytes.makeIterator()
    return iterator.next() == 0x1F && iterator.next() == 0x8B
  }

  /// Whether `bytes` start like a zlib stream (CMF/FLG check).
  package static func isZlib(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 2 && bytes[0] & 0x0F == 8 && (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0
  }

  /// Inflates a gzip or zlib stream (detected from its header), or with `raw` a headerless
  /// deflate stream (a zip entry's); throws when it is corrupt, truncated, or larger than
  /// `limit` bytes once inflated.
  package static func inflate(_ bytes: [UInt8], limit: Int = defaultLimit, raw: Bool = false) throws(CompressionError)
    -> [UInt8]
  {
    var stream = z_stream()
    // 32 + 15: detect gzip or zlib headers automatically, 32 KiB window; −15: raw deflate.
    let windowBits = raw ? -MAX_WBITS : 32 + MAX_WBITS
    guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw CompressionError.corrupt(reason: "inflateInit2 failed")
    }
    defer { inflateEnd(&stream) }
    var output = [UInt8]()
    output.reserveCapacity(min(max(bytes.count * 4, 4096), limit))
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    var status: Int32 = Z_OK
    try bytes.withUnsafeBufferPointer { (input: UnsafeBufferPointer<UInt8>) throws(CompressionError) in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = UInt32(input.count)
      repeat {
        let produced = chunk.withUnsafeMutableBufferPointer { buffer -> Int in
          stream.next_out = buffer.baseAddress
          stream.avail_out = UInt32(buffer.count)
          status = CZlib.inflate(&stream, Z_NO_FLUSH)
          return buffer.count - Int(stream.avail_out)
        }
        guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && produced > 0) else {
          let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
          throw CompressionError.corrupt(reason: message)
        }
        guard output.count + produced <= limit else { throw CompressionError.tooLarge(limit: limit) }
        output.append(contentsOf: chunk[0..<produced])
        if status == Z_BUF_ERROR || (produced == 0 && stream.avail_in == 0 && status != Z_STREAM_END) {
          throw CompressionError.truncated
        }
      } while status != Z_STREAM_END
    }
    return output
  }

  /// Compresses to gzip (for tests, fixtures and caches); `level` 0…9.
  package static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
    var stream = z_stream()
    // 16 + 15: gzip wrapper.
    guard
      deflateInit2_(
        &stream, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
        Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { preconditionFailure("deflateInit2 failed") }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
    let size = bytes.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { buffer -> Int in
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = UInt32(input.count)
        stream.next_out = buffer.baseAddress
        stream.avail_out = UInt32(buffer.count)
        let status = deflate(&stream, Z_FINISH)
        precondition(status == Z_STREAM_END, "deflate did not finish")
        return buffer.count - Int(stream.avail_out)
      }
    }
    return Array(output.prefix(size))
  }
}

/// A compressed stream that cannot be inflated.
package enum CompressionError: Error, Equatable, CustomStringConvertible {
  case corrupt(reason: String)
  case truncated
  case tooLarge(limit: Int)

  package var description: String {
    switch self {
    case .corrupt(let reason): return "corrupt compressed data (\(reason))"
    case .truncated: return "truncated compressed data"
    case .tooLarge(let limit): return "compressed data inflates beyond \(limit) bytes"
    }
  }
}
