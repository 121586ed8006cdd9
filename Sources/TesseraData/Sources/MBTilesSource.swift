import CSQLite
import Foundation
import Synchronization
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// An MBTiles archive (SQLite): tiles by zoom, column and TMS row, metadata as name/value rows
/// read as TileJSON (`json` holds `vector_layers`).
///
/// The database is opened read-only; reads are serialised on one connection (each is a few
/// microseconds; decoding, the expensive part, happens outside the lock).
package final class MBTilesSource: TileSource {
  package let name: String
  package let metadata: TileSourceMetadata
  private let database: Mutex<Connection>

  /// The SQLite handle and prepared tile query, used only under the lock.
  struct Connection: ~Copyable {
    let handle: OpaquePointer
    let tileQuery: OpaquePointer

    deinit {
      sqlite3_finalize(tileQuery)
      sqlite3_close_v2(handle)
    }
  }

  /// Opens an MBTiles file; errors say whether it is missing, not a database, or not MBTiles.
  package init(path: String) throws(TileSourceError) {
    name = path
    guard FileManager.default.fileExists(atPath: path) else {
      throw TileSourceError.open(source: path, reason: "no such file")
    }
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
    guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
      let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      sqlite3_close_v2(handle)
      throw TileSourceError.open(source: path, reason: reason)
    }
    func fail(_ reason: String) -> TileSourceError {
      sqlite3_close_v2(handle)
      return TileSourceError.open(source: path, reason: reason)
    }
    var rows = JSONObject()
    do {
      try SQLiteQueries.query(handle, "SELECT name, value FROM metadata") { statement in
        guard let key = sqlite3_column_text(statement, 0) else { return }
        let value = sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""
        rows[String(cString: key)] = .string(value)
      }
    } catch {
      let message = "\(error)"
      if message.contains("not a database") { throw fail("not an SQLite database (\(message))") }
      throw fail("not an MBTiles file: cannot read its metadata table (\(message))")
    }
    var count = 0
    do {
      try SQLiteQueries.query(handle, "SELECT COUNT(*) FROM tiles") { statement in
        count = Int(sqlite3_column_int64(statement, 0))
      }
    } catch {
      throw fail("not an MBTiles file: cannot read its tiles table (\(error))")
    }
    var statement: OpaquePointer?
    let sql = "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw fail("cannot prepare the tile query: \(String(cString: sqlite3_errmsg(handle)))")
    }
    var metadata = TileJSON.metadata(from: rows, format: .unknown)
    metadata.tileCount = count
    self.metadata = metadata
    database = Mutex(Connection(handle: handle, tileQuery: statement))
  }

  package func fetch(_ tile: TileID) throws(TileSourceError) -> TileFetch {
    let result: Result<TileFetch, TileSourceError> = database.withLock { connection in
      let statement = connection.tileQuery
      defer { sqlite3_reset(statement) }
      sqlite3_bind_int(statement, 1, Int32(tile.z))
      sqlite3_bind_int(statement, 2, Int32(tile.x))
      sqlite3_bind_int(statement, 3, Int32(tile.tmsY))
      switch sqlite3_step(statement) {
      case SQLITE_ROW:
        let size = Int(sqlite3_column_bytes(statement, 0))
        guard size > 0, let blob = sqlite3_column_blob(statement, 0) else { return .success(.noTile) }
        return .success(.data(Array(UnsafeRawBufferPointer(start: blob, count: size))))
      case SQLITE_DONE:
        return .success(.noTile)
      default:
        let reason = String(cString: sqlite3_errmsg(connection.handle))
        return .failure(TileSourceError.tileRead(source: name, tile: tile, reason: reason))
      }
    }
    return try result.get()
  }
}

/// An SQLite error message.
struct SQLiteError: Error, CustomStringConvertible {
  let description: String
}
