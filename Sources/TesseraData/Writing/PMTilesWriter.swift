import Foundation
import TesseraGeo
import TesseraNumbers

/// Writes a PMTiles (version 3) archive: tiles are spooled to a temporary file as they come
/// (only their ids, offsets and lengths stay in memory), and ``finish(metadata:)`` writes the
/// archive with its tile data clustered in Hilbert order, identical tiles stored once and runs
/// of them as run lengths, directories uncompressed (leaf directories when the root would not
/// fit in the first 16 KiB).
///
/// PMTiles cannot be appended to: a run is written whole (resume through MBTiles).
package final class PMTilesWriter {
  package let path: String
  /// Tile type code of the header (1 MVT, 2 PNG, 3 JPEG, 4 WebP).
  package let tileType: UInt8
  private let spoolPath: String
  private let spool: FileHandle
  private var spoolSize: UInt64 = 0
  private var entries: [(id: UInt64, offset: UInt64, length: UInt32, hash: UInt64)] = []
  private var zooms = (min: 30, max: 0)

  /// Starts an archive at `path` of `format` tiles (png, jpeg, webp or mvt).
  package init(path: String, format: TileFormat) throws(TileWriteError) {
    self.path = path
    switch format {
    case .mvt: tileType = 1
    case .png: tileType = 2
    case .jpeg: tileType = 3
    case .webp: tileType = 4
    default: throw TileWriteError("\(path): PMTiles holds mvt, png, jpeg or webp tiles, not \(format)")
    }
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
      throw TileWriteError("\(path): the folder \(folder) does not exist")
    }
    spoolPath = path + ".tiles-\(getpid()).tmp"
    guard FileManager.default.createFile(atPath: spoolPath, contents: nil),
      let handle = FileHandle(forWritingAtPath: spoolPath)
    else { throw TileWriteError("\(path): cannot write the temporary file \(spoolPath)") }
    spool = handle
  }

  deinit {
    try? spool.close()
    try? FileManager.default.removeItem(atPath: spoolPath)
  }

  /// Adds tiles (a tile added twice keeps the last bytes).
  package func write(_ tiles: [(tile: TileID, data: [UInt8])]) throws(TileWriteError) {
    for (tile, data) in tiles {
      do {
        try spool.write(contentsOf: Data(data))
      } catch {
        throw TileWriteError("\(path): cannot write tiles: \(error)")
      }
      let id = PMTilesFormat.tileID(PMTilesFormat.TileIDValue(z: tile.z, x: tile.x, y: tile.y))
      entries.append((id, spoolSize, UInt32(data.count), MBTilesWriter.hash(data)))
      spoolSize += UInt64(data.count)
      zooms = (min(zooms.min, tile.z), max(zooms.max, tile.z))
    }
  }

  /// Writes the archive: `metadata` is the JSON metadata object's text; `bounds` west, south,
  /// east, north in degrees. The temporary file is removed.
  package func finish(metadata: String, bounds: (Double, Double, Double, Double)) throws(TileWriteError) {
    do {
      try spool.synchronize()
      try spool.close()
    } catch {
      throw TileWriteError("\(path): \(error)")
    }
    guard let input = FileHandle(forReadingAtPath: spoolPath) else {
      throw TileWriteError("\(path): cannot read the temporary file \(spoolPath)")
    }
    defer { try? input.close() }
    // The last bytes written for an id win; ids in Hilbert order.
    var latest: [UInt64: Int] = [:]
    for (index, entry) in entries.enumerated() { latest[entry.id] = index }
    let order = latest.values.sorted { entries[$0].id < entries[$1].id }
    // Lay the data out in id order, identical tiles once; consecutive ids of one tile as runs.
    var placed: [UInt64: [(spoolOffset: UInt64, offset: UInt64, length: UInt32)]] = [:]
    var directory: [PMTilesFormat.Entry] = []
    var layout: [(spoolOffset: UInt64, length: UInt32)] = []
    var dataLength: UInt64 = 0
    var contents = 0
    for index in order {
      let entry = entries[index]
      var offset: UInt64?
      for candidate in placed[entry.hash] ?? [] where candidate.length == entry.length {
        if try Self.read(input, candidate.spoolOffset, candidate.length) == Self.read(input, entry.offset, entry.length)
        {
          offset = candidate.offset
          break
        }
      }
      if offset == nil {
        offset = dataLength
        placed[entry.hash, default: []].append((entry.offset, dataLength, entry.length))
        layout.append((entry.offset, entry.length))
        dataLength += UInt64(entry.length)
        contents += 1
      }
      if let last = directory.last, last.offset == offset!, last.tileID + UInt64(last.runLength) == entry.id {
        directory[directory.count - 1] = PMTilesFormat.Entry(
          tileID: last.tileID, offset: last.offset, length: last.length, runLength: last.runLength + 1)
      } else {
        directory.append(PMTilesFormat.Entry(tileID: entry.id, offset: offset!, length: entry.length, runLength: 1))
      }
    }
    guard !directory.isEmpty else { throw TileWriteError("\(path): no tiles to write") }
    // Directories: the root alone when it fits, else leaves of 4,096 entries.
    var root = Self.serialize(directory)
    var leaves: [UInt8] = []
    if Self.headerSize + root.count > 16_384 {
      var leafEntries: [PMTilesFormat.Entry] = []
      for start in stride(from: 0, to: directory.count, by: 4096) {
        let leaf = Self.serialize(Array(directory[start..<min(start + 4096, directory.count)]))
        leafEntries.append(
          PMTilesFormat.Entry(
            tileID: directory[start].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
        leaves += leaf
      }
      root = Self.serialize(leafEntries)
    }
    let metadataBytes = Array(metadata.utf8)
    let rootOffset = UInt64(Self.headerSize)
    let metadataOffset = rootOffset + UInt64(root.count)
    let leafOffset = metadataOffset + UInt64(metadataBytes.count)
    let dataOffset = leafOffset + UInt64(leaves.count)
    var header = Array("PMTiles".utf8) + [3]
    for value in [
      rootOffset, UInt64(root.count), metadataOffset, UInt64(metadataBytes.count), leafOffset, UInt64(leaves.count),
      dataOffset, dataLength, UInt64(latest.count), UInt64(directory.count), UInt64(contents),
    ] {
      header += (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
    header += [1, 1, 1, tileType, UInt8(zooms.min), UInt8(zooms.max)]
    func degrees(_ value: Double) -> [UInt8] {
      let raw = UInt32(bitPattern: Int32(clamping: (value * 10_000_000).rounded()))
      return (0..<4).map { UInt8(truncatingIfNeeded: raw >> (8 * UInt32($0))) }
    }
    header += degrees(bounds.0) + degrees(bounds.1) + degrees(bounds.2) + degrees(bounds.3)
    header += [UInt8(zooms.min)] + degrees((bounds.0 + bounds.2) / 2) + degrees((bounds.1 + bounds.3) / 2)
    precondition(header.count == Self.headerSize)
    guard FileManager.default.createFile(atPath: path, contents: Data(header + root + metadataBytes + leaves)),
      let output = FileHandle(forWritingAtPath: path)
    else { throw TileWriteError("\(path): cannot write the archive") }
    do {
      try output.seekToEnd()
      for piece in layout { try output.write(contentsOf: Data(try Self.read(input, piece.spoolOffset, piece.length))) }
      try output.close()
      try FileManager.default.removeItem(atPath: spoolPath)
    } catch {
      throw TileWriteError("\(path): cannot write the tile data: \(error)")
    }
  }

  static let headerSize = 127

  private static func read(_ handle: FileHandle, _ offset: UInt64, _ length: UInt32) throws(TileWriteError) -> [UInt8] {
    do {
      try handle.seek(toOffset: offset)
      return [UInt8](try handle.read(upToCount: Int(length)) ?? Data())
    } catch {
      throw TileWriteError("cannot read back a spooled tile: \(error)")
    }
  }

  /// A directory as PMTiles stores it: count, id deltas, run lengths, lengths, offsets (0 when
  /// an entry follows the previous one's bytes, else offset + 1), all varints.
  static func serialize(_ entries: [PMTilesFormat.Entry]) -> [UInt8] {
    var bytes: [UInt8] = []
    func varint(_ value: UInt64) {
      var value = value
      while value >= 0x80 {
        bytes.append(UInt8(value & 0x7F) | 0x80)
        value >>= 7
      }
      bytes.append(UInt8(value))
    }
    varint(UInt64(entries.count))
    var last: UInt64 = 0
    for entry in entries {
      varint(entry.tileID - last)
      last = entry.tileID
    }
    for entry in entries { varint(UInt64(entry.runLength)) }
    for entry in entries { varint(UInt64(entry.length)) }
    for (index, entry) in entries.enumerated() {
      if index > 0, entry.offset == entries[index - 1].offset + UInt64(entries[index - 1].length) {
        varint(0)
      } else {
        varint(entry.offset + 1)
      }
    }
    return bytes
  }
}
