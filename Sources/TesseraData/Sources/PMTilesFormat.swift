import TesseraNumbers

/// The binary layout of PMTiles version 3: header, tile ids on Hilbert curves, directories.
enum PMTilesFormat {
  /// Size of the fixed header.
  static let headerSize = 127

  /// The fixed header (little-endian fields).
  struct Header: Equatable {
    let rootOffset: UInt64
    let rootLength: UInt64
    let metadataOffset: UInt64
    let metadataLength: UInt64
    let leafOffset: UInt64
    let leafLength: UInt64
    let dataOffset: UInt64
    let dataLength: UInt64
    let addressedTiles: UInt64
    let internalCompression: UInt8
    let tileCompression: UInt8
    let tileType: UInt8
    let minZoom: UInt8
    let maxZoom: UInt8
    /// West, south, east, north in degrees.
    let bounds: (Double, Double, Double, Double)
    let centerZoom: UInt8
    let center: (longitude: Double, latitude: Double)

    static func == (a: Header, b: Header) -> Bool {
      a.rootOffset == b.rootOffset && a.rootLength == b.rootLength && a.dataOffset == b.dataOffset
    }

    /// Parses and checks a header; `fileSize` bounds every section.
    init(_ bytes: [UInt8], fileSize: UInt64) throws(PMTilesError) {
      guard bytes.count >= headerSize, bytes.starts(with: Array("PMTiles".utf8)) else {
        throw PMTilesError("not a PMTiles archive (bad magic number)")
      }
      guard bytes[7] == 3 else { throw PMTilesError("PMTiles version \(bytes[7]) is not supported (version 3 is)") }
      func u64(_ offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
      }
      func i32(_ offset: Int) -> Double {
        let raw = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
        return Double(Int32(bitPattern: raw)) / 10_000_000
      }
      rootOffset = u64(8)
      rootLength = u64(16)
      metadataOffset = u64(24)
      metadataLength = u64(32)
      leafOffset = u64(40)
      leafLength = u64(48)
      dataOffset = u64(56)
      dataLength = u64(64)
      addressedTiles = u64(72)
      internalCompression = bytes[97]
      tileCompression = bytes[98]
      tileType = bytes[99]
      minZoom = bytes[100]
      maxZoom = bytes[101]
      bounds = (i32(102), i32(106), i32(110), i32(114))
      centerZoom = bytes[118]
      center = (i32(119), i32(123))
      for (section, offset, length) in [
        ("root directory", rootOffset, rootLength), ("metadata", metadataOffset, metadataLength),
        ("leaf directories", leafOffset, leafLength), ("tile data", dataOffset, dataLength),
      ] where offset > fileSize || length > fileSize - offset {
        throw PMTilesError("\(section) (offset \(offset), length \(length)) lies outside the \(fileSize)-byte file")
      }
      guard rootLength > 0 else { throw PMTilesError("empty root directory") }
      guard minZoom <= maxZoom, maxZoom <= 30 else {
        throw PMTilesError("zoom range \(minZoom)...\(maxZoom) is invalid")
      }
      for (what, value) in [("internal", internalCompression), ("tile", tileCompression)] where value > 2 {
        let names = [3: "brotli", 4: "zstd"]
        throw PMTilesError(
          "\(what) compression \(names[Int(value)] ?? "code \(value)") is not supported (none and gzip are)")
      }
    }

    /// The tile format the header names.
    var format: TileFormat {
      switch tileType {
      case 1: return .mvt
      case 2: return .png
      case 3: return .jpeg
      case 4: return .webp
      default: return .unknown
      }
    }
  }

  /// A directory entry: `runLength` consecutive tile ids from `tileID` share one blob; a run
  /// length of 0 points to a leaf directory instead.
  struct Entry: Equatable {
    let tileID: UInt64
    let offset: UInt64
    let length: UInt32
    let runLength: UInt32
  }

  /// The Hilbert tile id of z/x/y: all tiles of lower zooms come first ((4^z − 1) / 3 of
  /// them), then the position along zoom z's Hilbert curve.
  static func tileID(_ tile: TileIDValue) -> UInt64 {
    let z = tile.z
    var offset: UInt64 = 0
    for level in 0..<z { offset += UInt64(1) << (2 * UInt64(level)) }
    var x = tile.x
    var y = tile.y
    var distance: UInt64 = 0
    let n = 1 << z
    var s = n / 2
    while s > 0 {
      let rx = x & s > 0 ? 1 : 0
      let ry = y & s > 0 ? 1 : 0
      distance += UInt64(s) * UInt64(s) * UInt64((3 * rx) ^ ry)
      if ry == 0 {
        if rx == 1 {
          x = n - 1 - x
          y = n - 1 - y
        }
        swap(&x, &y)
      }
      s /= 2
    }
    return offset + distance
  }

  /// z, x, y as plain integers (TileID traps on out-of-range values; ids come checked).
  struct TileIDValue {
    let z: Int
    let x: Int
    let y: Int
  }

  /// Parses an (inflated) directory.
  static func directory(_ bytes: [UInt8]) throws(PMTilesError) -> [Entry] {
    var offset = 0
    func varint() throws(PMTilesError) -> UInt64 {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        guard offset < bytes.count else { throw PMTilesError("directory ends inside a number") }
        let byte = bytes[offset]
        offset += 1
        value |= UInt64(byte & 0x7F) << shift
        if byte & 0x80 == 0 { return value }
        shift += 7
        guard shift < 64 else { throw PMTilesError("directory number longer than 10 bytes") }
      }
    }
    let count = try varint()
    guard count > 0 else { throw PMTilesError("empty directory") }
    // Each entry takes at least four bytes.
    guard count <= UInt64(bytes.count) / 4 else {
      throw PMTilesError("directory claims \(count) entries in \(bytes.count) bytes")
    }
    let n = Int(count)
    var ids = [UInt64](repeating: 0, count: n)
    var last: UInt64 = 0
    for index in 0..<n {
      let (sum, overflow) = last.addingReportingOverflow(try varint())
      guard !overflow else { throw PMTilesError("tile id overflows") }
      last = sum
      ids[index] = last
    }
    var runs = [UInt32](repeating: 0, count: n)
    for index in 0..<n { runs[index] = UInt32(truncatingIfNeeded: try varint()) }
    var lengths = [UInt32](repeating: 0, count: n)
    for index in 0..<n {
      let length = try varint()
      guard length > 0, length <= UInt64(UInt32.max) else { throw PMTilesError("entry \(index) has length \(length)") }
      lengths[index] = UInt32(length)
    }
    var entries: [Entry] = []
    entries.reserveCapacity(n)
    for index in 0..<n {
      let raw = try varint()
      let entryOffset: UInt64
      if raw == 0 {
        guard index > 0 else { throw PMTilesError("the first entry has no offset") }
        entryOffset = entries[index - 1].offset + UInt64(entries[index - 1].length)
      } else {
        entryOffset = raw - 1
      }
      entries.append(Entry(tileID: ids[index], offset: entryOffset, length: lengths[index], runLength: runs[index]))
    }
    return entries
  }

  /// The entry covering `tileID` (the last entry with id ≤ tileID, if its run or leaf covers it).
  static func find(_ tileID: UInt64, in entries: [Entry]) -> Entry? {
    var low = 0
    var high = entries.count - 1
    while low <= high {
      let middle = (low + high) / 2
      if entries[middle].tileID == tileID { return entries[middle] }
      if entries[middle].tileID < tileID { low = middle + 1 } else { high = middle - 1 }
    }
    guard high >= 0 else { return nil }
    let candidate = entries[high]
    if candidate.runLength == 0 { return candidate }
    return tileID - candidate.tileID < UInt64(candidate.runLength) ? candidate : nil
  }
}

/// A malformed PMTiles archive.
struct PMTilesError: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
