import CSQLite
import Foundation
import TesseraNumbers

/// The few SQLite calls the MBTiles reader and writer share.
enum SQLiteQueries {
  /// Runs `sql`, calling `row` for each result row.
  static func query(_ handle: OpaquePointer, _ sql: String, row: (OpaquePointer) throws -> Void) throws {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw SQLiteError(description: String(cString: sqlite3_errmsg(handle)))
    }
    defer { sqlite3_finalize(statement) }
    while true {
      let status = sqlite3_step(statement)
      if status == SQLITE_DONE { return }
      guard status == SQLITE_ROW else { throw SQLiteError(description: String(cString: sqlite3_errmsg(handle))) }
      try row(statement)
    }
  }

  /// Opens an existing database read-only; the error says why not.
  static func openReadOnly(_ path: String) throws(SQLiteError) -> OpaquePointer {
    guard FileManager.default.fileExists(atPath: path) else { throw SQLiteError(description: "no such file") }
    var handle: OpaquePointer?
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle
    else {
      let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      sqlite3_close_v2(handle)
      throw SQLiteError(description: reason)
    }
    return handle
  }

  /// The bytes of a blob column of the current row.
  static func blob(_ statement: OpaquePointer, _ column: Int32) -> [UInt8] {
    let size = Int(sqlite3_column_bytes(statement, column))
    return sqlite3_column_blob(statement, column).map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
  }
}
