import CSQLite
import Foundation
import TesseraCLI
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraTestSupport
import Testing

/// `tessera tiles`: shards merge into exactly the tiles of one run, a stopped run resumes, bad
/// input is a clear error. Over the demo city, so no shared data is needed.
@Suite struct TilesCommandTests {
  static let area = ["--bbox", "-74.012,39.992,-73.99,40.008", "--zooms", "13-16", "--metatile", "2"]

  static func tiles(_ path: String) throws -> [TileID: [UInt8]] {
    var tiles: [TileID: [UInt8]] = [:]
    try MBTilesWriter.forEachTile(in: path) { tile, data in tiles[tile] = data }
    return tiles
  }

  @Test func threeShardsMergeToTheTilesOfOneRun() throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let single = CapturedRun(["tiles"] + Self.area + ["--output", folder + "/single.mbtiles", "--quiet"])
    #expect(single.status == 0, "\(single.error)")
    let whole = try Self.tiles(folder + "/single.mbtiles")
    #expect(whole.count > 20)
    var shardCounts: [Int] = []
    for index in 0..<3 {
      let run = CapturedRun(
        ["tiles"] + Self.area + ["--output", folder + "/shard\(index).mbtiles", "--shard", "\(index)/3", "--quiet"])
      #expect(run.status == 0, "\(run.error)")
      shardCounts.append(try Self.tiles(folder + "/shard\(index).mbtiles").count)
    }
    // Every shard has a share; together they hold each tile once.
    #expect(shardCounts.allSatisfy { $0 > 0 } && shardCounts.reduce(0, +) == whole.count, "\(shardCounts)")
    let shards = (0..<3).map { folder + "/shard\($0).mbtiles" }
    let merged = CapturedRun(["tiles", "merge", "--output", folder + "/merged.mbtiles"] + shards)
    #expect(merged.status == 0, "\(merged.error)")
    #expect(try Self.tiles(folder + "/merged.mbtiles") == whole)
    // The same shards merged into PMTiles (Hilbert order) read back the same tiles.
    let pmtiles = CapturedRun(["tiles", "merge", "--output", folder + "/merged.pmtiles"] + shards)
    #expect(pmtiles.status == 0, "\(pmtiles.error)")
    let archive = try PMTilesSource(path: folder + "/merged.pmtiles")
    for (tile, data) in whole {
      guard case .data(let read) = try archive.fetch(tile) else {
        Issue.record("\(tile) missing from the PMTiles archive")
        continue
      }
      #expect(read == data, "\(tile)")
    }
    #expect(archive.metadata.minZoom == 13 && archive.metadata.maxZoom == 16)
  }

  @Test func aStoppedRunResumesWithTheMissingTilesOnly() throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/resume.mbtiles"
    #expect(CapturedRun(["tiles"] + Self.area + ["--output", path, "--quiet"]).status == 0)
    let complete = try Self.tiles(path)
    // A run stopped after zoom 15: the zoom 16 tiles are missing.
    let missing = complete.keys.filter { $0.z == 16 }.count
    try SQLiteScript.run("DELETE FROM map WHERE zoom_level = 16", on: path)
    let again = CapturedRun(["tiles"] + Self.area + ["--output", path, "--quiet"])
    #expect(again.status == 0, "\(again.error)")
    #expect(again.out.contains("(\(missing) rendered, \(complete.count - missing) already there)"), "\(again.out)")
    #expect(try Self.tiles(path) == complete)
  }

  @Test func aFolderHoldsZXYFilesAndIdenticalTilesAreStoredOnce() throws {
    let folder = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // Map type none draws the background alone: every tile is the same.
    let sea = ["--bbox", "-74.05,39.9,-73.95,39.95", "--zooms", "15", "--map-type", "none", "--quiet"]
    #expect(CapturedRun(["tiles"] + sea + ["--output", folder + "/sea.mbtiles"]).status == 0)
    let tiles = try Self.tiles(folder + "/sea.mbtiles")
    let images = try SQLiteScript.count("SELECT COUNT(*) FROM images", on: folder + "/sea.mbtiles")
    #expect(tiles.count > 10 && images == 1, "\(tiles.count) tiles, \(images) images")
    #expect(CapturedRun(["tiles"] + sea + ["--output", folder + "/sea", "--format", "webp"]).status == 0)
    let tile = tiles.keys.sorted().first!
    let file = folder + "/sea/\(tile.z)/\(tile.x)/\(tile.y).webp"
    let image = try ImageCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: file))), source: file)
    #expect(image.width == 256 && image.height == 256)
    #expect(FileManager.default.fileExists(atPath: folder + "/sea/metadata.json"))
  }

  @Test(arguments: [
    (["--bbox", "170,0,190,10", "--zooms", "3"], "bbox east must be within ±180°"),
    (["--bbox", "10,10,0,20", "--zooms", "3"], "west < east"),
    (["--bbox", "0,0,1,1", "--zooms", "0-30"], "0 ≤ Z0 ≤ Z1 ≤ 22"),
    (["--bbox", "0,0,1,1", "--zooms", "22", "--tile-size", "512"], "512-point tiles go to zoom 21"),
    (["--bbox", "0,0,1,1"], "--zooms is required"),
    (["--zooms", "3"], "--bbox W,S,E,N or --geojson"),
    (["--bbox", "0,0,1,1", "--zooms", "3", "--shard", "3/3"], "0 ≤ i < n"),
    (["--bbox", "0,0,1,1", "--zooms", "3", "--metatile", "3"], "metatile must be 1, 2, 4, 8 or 16"),
  ])
  func badInputIsAUsageError(_ arguments: [String], _ message: String) throws {
    let run = CapturedRun(["tiles"] + arguments + ["--output", NSTemporaryDirectory() + "never.mbtiles"])
    #expect(run.status == 2)
    #expect(run.error.contains(message), "\(run.error)")
  }

  @Test func unwritableOutputsAndMissingShardsAreErrors() throws {
    let run = CapturedRun(
      ["tiles", "--bbox", "0,0,1,1", "--zooms", "1", "--output", "/nonexistent-folder/x.mbtiles", "--quiet"])
    #expect(run.status == 1 && run.error.contains("/nonexistent-folder"), "\(run.error)")
    let merge = CapturedRun(["tiles", "merge", "--output", NSTemporaryDirectory() + "m.mbtiles", "/missing.mbtiles"])
    #expect(merge.status == 1 && merge.error.contains("/missing.mbtiles"), "\(merge.error)")
  }
}

/// Plain SQL on a test archive (simulating a stopped run, counting rows).
enum SQLiteScript {
  struct Failure: Error { let description: String }

  static func run(_ sql: String, on path: String) throws {
    var handle: OpaquePointer?
    guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else {
      throw Failure(description: "cannot open \(path)")
    }
    defer { sqlite3_close(handle) }
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
      throw Failure(description: String(cString: sqlite3_errmsg(handle)))
    }
  }

  static func count(_ sql: String, on path: String) throws -> Int {
    var handle: OpaquePointer?
    guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else {
      throw Failure(description: "cannot open \(path)")
    }
    defer { sqlite3_close(handle) }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw Failure(description: String(cString: sqlite3_errmsg(handle)))
    }
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { throw Failure(description: "no row") }
    return Int(sqlite3_column_int64(statement, 0))
  }
}
