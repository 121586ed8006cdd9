import Foundation
import Glibc
import Synchronization
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// A PMTiles v3 archive on disk (or in memory): header, root and leaf directories (gzip or
/// uncompressed), run-length entries, Hilbert tile ids. File reads use `pread`, so fetches run
/// concurrently.
package final class PMTilesSource: TileSource {
  package let name: String
  package let metadata: TileSourceMetadata
  private let file: Storage
  private let header: PMTilesFormat.Header
  private let root: [PMTilesFormat.Entry]
  /// Parsed leaf directories by offset (a small cache; archives have few leaves).
  private let leaves = Mutex<[UInt64: [PMTilesFormat.Entry]]>([:])
  /// Directory nesting followed at most.
  static let maxDepth = 4
  /// The largest directory or metadata section read, in bytes.
  static let maxSectionSize: UInt64 = 64 << 20

  /// Where the archive's bytes are: an open file, or memory.
  final class Storage: Sendable {
    let fd: Int32
    let bytes: [UInt8]?
    let size: UInt64

    init(fd: Int32, size: UInt64) {
      self.fd = fd
      self.size = size
      bytes = nil
    }

    init(bytes: [UInt8]) {
      fd = -1
      self.bytes = bytes
      size = UInt64(bytes.count)
    }

    deinit { if fd >= 0 { close(fd) } }
  }

  /// Opens an archive; errors name a missing file, a bad magic number or version, or sections
  /// outside the file.
  package convenience init(path: String) throws(TileSourceError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw TileSourceError.open(
        source: path, reason: errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
    }
    var status = stat()
    fstat(fd, &status)
    try self.init(storage: Storage(fd: fd, size: UInt64(status.st_size)), name: path)
  }

  /// Reads an archive held in memory; `name` names it in messages.
  package convenience init(bytes: [UInt8], name: String) throws(TileSourceError) {
    try self.init(storage: Storage(bytes: bytes), name: name)
  }

  private init(storage file: Storage, name path: String) throws(TileSourceError) {
    name = path
    self.file = file
    do {
      let header = try PMTilesFormat.Header(
        try PMTilesSource.read(file, offset: 0, length: UInt64(min(UInt64(PMTilesFormat.headerSize), file.size))),
        fileSize: file.size)
      self.header = header
      root = try PMTilesFormat.directory(
        try PMTilesSource.section(file, header: header, offset: header.rootOffset, length: header.rootLength))
      var object = JSONObject()
      if header.metadataLength > 0 {
        let bytes = try PMTilesSource.section(
          file, header: header, offset: header.metadataOffset, length: header.metadataLength)
        guard let parsed = try? JSONParser.parse(bytes), let parsedObject = parsed.object else {
          throw PMTilesError("metadata is not a JSON object")
        }
        object = parsedObject
      }
      var metadata = TileJSON.metadata(from: object, format: header.format)
      metadata.format = header.format == .unknown ? metadata.format : header.format
      metadata.minZoom = Int(header.minZoom)
      metadata.maxZoom = Int(header.maxZoom)
      let box = header.bounds
      let bounds = CoordinateBounds(south: box.1, west: box.0, north: box.3, east: box.2)
      if bounds.isValid && (box.0, box.1, box.2, box.3) != (0, 0, 0, 0) { metadata.bounds = bounds }
      metadata.center = (
        Coordinate(latitude: header.center.latitude, longitude: header.center.longitude), Double(header.centerZoom)
      )
      metadata.tileCount = header.addressedTiles > 0 ? Int(clamping: header.addressedTiles) : nil
      self.metadata = metadata
    } catch let error as PMTilesError {
      throw TileSourceError.open(source: path, reason: error.reason)
    } catch {
      throw TileSourceError.open(source: path, reason: "\(error)")
    }
  }

  /// The PMTiles (Hilbert) tile id of z/x/y.
  package static func tileID(z: Int, x: Int, y: Int) -> UInt64 {
    PMTilesFormat.tileID(.init(z: z, x: x, y: y))
  }

  package func fetch(_ tile: TileID) throws(TileSourceError) -> TileFetch {
    guard tile.z >= Int(header.minZoom), tile.z <= Int(header.maxZoom) else { return .noTile }
    let id = PMTilesFormat.tileID(.init(z: tile.z, x: tile.x, y: tile.y))
    do {
      var entries = root
      for _ in 0..<PMTilesSource.maxDepth {
        guard let entry = PMTilesFormat.find(id, in: entries) else { return .noTile }
        if entry.runLength > 0 {
          let bytes = try PMTilesSource.read(
            file, offset: header.dataOffset + entry.offset, length: UInt64(entry.length),
            within: header.dataOffset + header.dataLength)
          // Gzip-compressed vector tiles are inflated by the decoder; images are inflated here.
          if header.tileCompression == 2 && metadata.format.isRaster && Gzip.isGzip(bytes) {
            do {
              return .data(try Gzip.inflate(bytes))
            } catch {
              throw PMTilesError("tile data: \(error)")
            }
          }
          return .data(bytes)
        }
        entries = try leaf(at: entry.offset, length: UInt64(entry.length))
      }
      throw PMTilesError("directories nest deeper than \(PMTilesSource.maxDepth) levels")
    } catch let error as PMTilesError {
      throw TileSourceError.tileRead(source: name, tile: tile, reason: error.reason)
    } catch {
      throw TileSourceError.tileRead(source: name, tile: tile, reason: "\(error)")
    }
  }

  private func leaf(at offset: UInt64, length: UInt64) throws(PMTilesError) -> [PMTilesFormat.Entry] {
    if let cached = leaves.withLock({ $0[offset] }) { return cached }
    guard offset <= header.leafLength, length <= header.leafLength - offset else {
      throw PMTilesError("leaf directory (offset \(offset), length \(length)) lies outside the leaf section")
    }
    let entries = try PMTilesFormat.directory(
      try PMTilesSource.section(file, header: header, offset: header.leafOffset + offset, length: length))
    leaves.withLock { $0[offset] = entries }
    return entries
  }

  /// Reads and, with internal gzip compression, inflates a directory or metadata section.
  private static func section(_ file: Storage, header: PMTilesFormat.Header, offset: UInt64, length: UInt64)
    throws(PMTilesError) -> [UInt8]
  {
    guard length <= maxSectionSize else { throw PMTilesError("a \(length)-byte directory is too large") }
    let bytes = try read(file, offset: offset, length: length)
    guard header.internalCompression == 2 else { return bytes }
    do {
      return try Gzip.inflate(bytes, limit: Int(maxSectionSize))
    } catch {
      throw PMTilesError("directory: \(error)")
    }
  }

  /// `length` bytes at `offset`, which must end within `limit` (the file by default).
  private static func read(_ file: Storage, offset: UInt64, length: UInt64, within limit: UInt64? = nil)
    throws(PMTilesError) -> [UInt8]
  {
    let end = min(limit ?? file.size, file.size)
    guard offset <= end, length <= end - offset else {
      throw PMTilesError("read of \(length) bytes at \(offset) runs past the \(end)-byte section")
    }
    if let bytes = file.bytes { return Array(bytes[Int(offset)..<Int(offset + length)]) }
    var bytes = [UInt8](repeating: 0, count: Int(length))
    var done = 0
    while done < bytes.count {
      let count = bytes.withUnsafeMutableBytes { buffer in
        pread(file.fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
      }
      guard count > 0 else {
        throw PMTilesError("read failed at \(offset + UInt64(done)): \(String(cString: strerror(errno)))")
      }
      done += count
    }
    return bytes
  }
}
