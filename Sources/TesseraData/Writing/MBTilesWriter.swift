import CSQLite
import Foundation
import TesseraGeo
import TesseraNumbers

/// Why a tile archive could not be written.
package struct TileWriteError: Error, Equatable, CustomStringConvertible {
  package let description: String

  package init(_ description: String) { self.description = description }
}

/// Writes an MBTiles archive (SQLite) that may be resumed: tiles already in it are reported by
/// ``contains(_:)`` and skipped by the caller; identical tile images are stored once (the
/// `map`/`images` layout with a `tiles` view, as tile tools write). Each ``write(_:data:)``
/// batch is committed in one transaction, so a killed run leaves a valid archive holding every
/// batch committed before.
///
/// Not thread-safe: one writer per thread.
package final class MBTilesWriter {
  package let path: String
  private let handle: OpaquePointer
  private var statements: [String: OpaquePointer] = [:]
  /// Tile images stored, by content hash, with the id they were stored under.
  private var storedImages: [UInt64: [(id: String, size: Int)]] = [:]
  private var nextImage = 0

  /// Opens `path`, making the archive when it does not exist; an existing file must be an
  /// MBTiles archive written by this writer or by a tool with the same layout, or a plain
  /// `tiles` table (then new tiles go into it directly).
  package init(path: String) throws(TileWriteError) {
    self.path = path
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
      throw TileWriteError("\(path): the folder \(folder) does not exist")
    }
    var opened: OpaquePointer?
    guard
      sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        == SQLITE_OK, let opened
    else {
      let reason = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      sqlite3_close_v2(opened)
      throw TileWriteError("\(path): cannot open for writing: \(reason)")
    }
    handle = opened
    do {
      try execute("PRAGMA journal_mode = WAL")
      try execute("PRAGMA synchronous = NORMAL")
      try execute("CREATE TABLE IF NOT EXISTS metadata (name TEXT PRIMARY KEY, value TEXT)")
      try execute(
        "CREATE TABLE IF NOT EXISTS map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT, "
          + "PRIMARY KEY (zoom_level, tile_column, tile_row))")
      try execute("CREATE TABLE IF NOT EXISTS images (tile_id TEXT PRIMARY KEY, tile_data BLOB)")
      try execute(
        "CREATE VIEW IF NOT EXISTS tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column, "
          + "map.tile_row AS tile_row, images.tile_data AS tile_data FROM map JOIN images ON images.tile_id = map.tile_id"
      )
      // Images already stored (a resumed run), so new identical tiles share them.
      try SQLiteQueries.query(handle, "SELECT tile_id, tile_data FROM images") { statement in
        guard let id = sqlite3_column_text(statement, 0) else { return }
        let size = Int(sqlite3_column_bytes(statement, 1))
        let bytes =
          sqlite3_column_blob(statement, 1).map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
        storedImages[Self.hash(bytes), default: []].append((String(cString: id), size))
        nextImage += 1
      }
    } catch {
      sqlite3_close_v2(handle)
      throw TileWriteError("\(path): \(error)")
    }
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close_v2(handle)
  }

  /// Sets metadata rows (`name`, `format`, `bounds`, `minzoom`, `attribution`…).
  package func setMetadata(_ rows: [(String, String)]) throws(TileWriteError) {
    try transaction { () throws(TileWriteError) in
      for (name, value) in rows {
        let statement = try prepared("INSERT OR REPLACE INTO metadata (name, value) VALUES (?, ?)")
        defer { sqlite3_reset(statement) }
        sqlite3_bind_text(statement, 1, name, -1, Self.transient)
        sqlite3_bind_text(statement, 2, value, -1, Self.transient)
        try step(statement)
      }
    }
  }

  /// Whether the archive holds `tile`.
  package func contains(_ tile: TileID) throws(TileWriteError) -> Bool {
    let statement = try prepared("SELECT 1 FROM map WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
    defer { sqlite3_reset(statement) }
    sqlite3_bind_int(statement, 1, Int32(tile.z))
    sqlite3_bind_int(statement, 2, Int32(tile.x))
    sqlite3_bind_int(statement, 3, Int32(tile.tmsY))
    switch sqlite3_step(statement) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw TileWriteError("\(path): \(String(cString: sqlite3_errmsg(handle)))")
    }
  }

  /// The number of tiles in the archive.
  package func tileCount() throws(TileWriteError) -> Int {
    var count = 0
    do {
      try SQLiteQueries.query(handle, "SELECT COUNT(*) FROM map") { count = Int(sqlite3_column_int64($0, 0)) }
    } catch {
      throw TileWriteError("\(path): \(error)")
    }
    return count
  }

  /// Writes tiles (replacing any there) in one transaction.
  package func write(_ tiles: [(tile: TileID, data: [UInt8])]) throws(TileWriteError) {
    try transaction { () throws(TileWriteError) in
      for (tile, data) in tiles {
        let id = try imageID(data)
        let statement = try prepared(
          "INSERT OR REPLACE INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)")
        defer { sqlite3_reset(statement) }
        sqlite3_bind_int(statement, 1, Int32(tile.z))
        sqlite3_bind_int(statement, 2, Int32(tile.x))
        sqlite3_bind_int(statement, 3, Int32(tile.tmsY))
        sqlite3_bind_text(statement, 4, id, -1, Self.transient)
        try step(statement)
      }
    }
  }

  /// The id of an image, storing it when no identical one is stored.
  private func imageID(_ data: [UInt8]) throws(TileWriteError) -> String {
    let hash = Self.hash(data)
    for candidate in storedImages[hash] ?? [] where candidate.size == data.count {
      if try storedBytes(candidate.id) == data { return candidate.id }
    }
    let id = String(format: "%016llx-%d", hash, nextImage)
    nextImage += 1
    let statement = try prepared("INSERT INTO images (tile_id, tile_data) VALUES (?, ?)")
    defer { sqlite3_reset(statement) }
    sqlite3_bind_text(statement, 1, id, -1, Self.transient)
    _ = data.withUnsafeBytes { sqlite3_bind_blob(statement, 2, $0.baseAddress, Int32(data.count), Self.transient) }
    try step(statement)
    storedImages[hash, default: []].append((id, data.count))
    return id
  }

  private func storedBytes(_ id: String) throws(TileWriteError) -> [UInt8] {
    let statement = try prepared("SELECT tile_data FROM images WHERE tile_id = ?")
    defer { sqlite3_reset(statement) }
    sqlite3_bind_text(statement, 1, id, -1, Self.transient)
    guard sqlite3_step(statement) == SQLITE_ROW else { return [] }
    let size = Int(sqlite3_column_bytes(statement, 0))
    return sqlite3_column_blob(statement, 0).map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
  }

  /// Calls `body` with every tile of the MBTiles archive at `path` (any layout with a `tiles`
  /// table or view), XYZ ids.
  package static func forEachTile(in path: String, _ body: (TileID, [UInt8]) throws -> Void) throws {
    let handle = try open(path)
    defer { sqlite3_close_v2(handle) }
    do {
      try SQLiteQueries.query(handle, "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles") { statement in
        let z = Int(sqlite3_column_int(statement, 0))
        let x = Int(sqlite3_column_int(statement, 1))
        let tmsY = Int(sqlite3_column_int(statement, 2))
        guard (0...30).contains(z), let tile = TileID(checkedZ: z, x: x, y: (1 << z) - 1 - tmsY) else {
          throw TileWriteError("\(path): tile \(z)/\(x)/\(tmsY) (TMS) lies outside its zoom level")
        }
        try body(tile, SQLiteQueries.blob(statement, 3))
      }
    } catch let error as SQLiteError {
      throw TileWriteError("\(path): not an MBTiles archive (\(error.description))")
    }
  }

  /// The metadata rows of the MBTiles archive at `path`, in table order.
  package static func metadata(of path: String) throws(TileWriteError) -> [(String, String)] {
    let handle = try open(path)
    defer { sqlite3_close_v2(handle) }
    var rows: [(String, String)] = []
    do {
      try SQLiteQueries.query(handle, "SELECT name, value FROM metadata") { statement in
        guard let name = sqlite3_column_text(statement, 0) else { return }
        rows.append((String(cString: name), sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""))
      }
    } catch {
      throw TileWriteError("\(path): not an MBTiles archive (no metadata table: \(error))")
    }
    return rows
  }

  /// Opens an archive read-only.
  private static func open(_ path: String) throws(TileWriteError) -> OpaquePointer {
    do {
      return try SQLiteQueries.openReadOnly(path)
    } catch {
      throw TileWriteError("\(path): \(error)")
    }
  }

  /// FNV-1a, 64 bits: equal images have equal hashes; equal hashes are checked byte by byte.
  static func hash(_ bytes: [UInt8]) -> UInt64 { FNV1a.hash(bytes) }

  static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  private func transaction(_ body: () throws(TileWriteError) -> Void) throws(TileWriteError) {
    do {
      try execute("BEGIN IMMEDIATE")
    } catch {
      throw TileWriteError("\(path): \(error)")
    }
    do {
      try body()
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
    do {
      try execute("COMMIT")
    } catch {
      try? execute("ROLLBACK")
      throw TileWriteError("\(path): cannot commit: \(error.description)")
    }
  }

  private func prepared(_ sql: String) throws(TileWriteError) -> OpaquePointer {
    if let statement = statements[sql] { return statement }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw TileWriteError("\(path): \(String(cString: sqlite3_errmsg(handle)))")
    }
    statements[sql] = statement
    return statement
  }

  private func step(_ statement: OpaquePointer) throws(TileWriteError) {
    let status = sqlite3_step(statement)
    guard status == SQLITE_DONE || status == SQLITE_ROW else {
      throw TileWriteError("\(path): cannot write: \(String(cString: sqlite3_errmsg(handle)))")
    }
  }

  private func execute(_ sql: String) throws(SQLiteError) {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      sqlite3_free(message)
      throw SQLiteError(description: text)
    }
  }

}
