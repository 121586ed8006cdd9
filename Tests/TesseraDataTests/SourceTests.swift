import Foundation
import TesseraData
import TesseraGeo
import TesseraTestSupport
import Testing

@Suite(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
struct ArchiveSourceTests {
  static let mbtiles = "data/vector/monaco-openmaptiles.mbtiles"
  static let pmtiles = "data/vector/monaco-openmaptiles.pmtiles"

  @Test func mbtilesMetadataReadsAsTileJSON() throws {
    let source = try MBTilesSource(path: SharedData.path(ArchiveSourceTests.mbtiles))
    let metadata = source.metadata
    #expect(metadata.format == .mvt && metadata.minZoom == 0 && metadata.maxZoom == 14 && metadata.tileCount == 23)
    #expect(metadata.vectorLayers.count == 16)
    #expect(
      metadata.vectorLayers.first { $0.id == "building" }?.fields.keys.sorted() == [
        "render_height", "render_min_height",
      ])
    #expect(metadata.attribution?.contains("OpenStreetMap") == true)
    let bounds = try #require(metadata.bounds)
    #expect(abs(bounds.west - 7.409205) < 1e-9 && abs(bounds.north - 43.75169) < 1e-9)
  }

  @Test func mbtilesTilesUseTMSRowsAndMatchTheLooseSamples() throws {
    let source = try MBTilesSource(path: SharedData.path(ArchiveSourceTests.mbtiles))
    guard case .data(let bytes) = try source.fetch(TileID(z: 14, x: 8529, y: 5974)) else {
      Issue.record("no tile")
      return
    }
    #expect(Gzip.isGzip(bytes))
    #expect(try Gzip.inflate(bytes) == SharedData.bytes("data/samples/mvt/14/8529/5974.mvt"))
    guard case .noTile = try source.fetch(TileID(z: 14, x: 0, y: 0)) else {
      Issue.record("expected no tile")
      return
    }
  }

  @Test func pmtilesHoldsTheSameTilesAsMBTiles() throws {
    let mb = try MBTilesSource(path: SharedData.path(ArchiveSourceTests.mbtiles))
    let pm = try PMTilesSource(path: SharedData.path(ArchiveSourceTests.pmtiles))
    #expect(pm.metadata.format == .mvt && pm.metadata.minZoom == 0 && pm.metadata.maxZoom == 14)
    #expect(pm.metadata.vectorLayers.count == 16)
    var compared = 0
    for z in 0...14 {
      let tiles =
        z <= 12
        ? [TileID(z: 14, x: 8529, y: 5974).ancestor(atZoom: z)]
        : (z == 13
          ? (4264...4265).flatMap { x in (2986...2987).map { TileID(z: 13, x: x, y: $0) } }
          : (8529...8530).flatMap { x in (5973...5975).map { TileID(z: 14, x: x, y: $0) } })
      for tile in tiles {
        guard case .data(let a) = try mb.fetch(tile), case .data(let b) = try pm.fetch(tile) else {
          Issue.record("tile \(tile) missing")
          continue
        }
        #expect(try Gzip.inflate(a) == Gzip.inflate(b), "tile \(tile)")
        compared += 1
      }
    }
    #expect(compared == 23)
    guard case .noTile = try pm.fetch(TileID(z: 14, x: 100, y: 100)) else {
      Issue.record("expected no tile")
      return
    }
  }

  @Test func rasterAndDEMSourcesDecode() throws {
    let loader = TileLoader()
    let imagery = try MBTilesSource(path: SharedData.path("data/raster/bluemarble-z0-4.mbtiles"))
    #expect(imagery.metadata.format == .jpeg && imagery.metadata.tileCount == 341)
    let image = loader.load([TileID(z: 4, x: 8, y: 5)], from: BoundSource(imagery))[TileID(z: 4, x: 8, y: 5)]
    guard case .tile(.raster(let raster)) = image else {
      Issue.record("expected a raster tile, got \(String(describing: image))")
      return
    }
    #expect(raster.width == 256 && raster.height == 256)
    // Mont Agel (7.4209, 43.7716): 1125.1 m in the data set's spot check.
    let agel = Mercator.project(Coordinate(latitude: 43.7716, longitude: 7.4209), zoom: 12)
    let tile = TileID(z: 12, x: Int(agel.x / 256), y: Int(agel.y / 256))
    let px = Int(agel.x) % 256
    let py = Int(agel.y) % 256
    var heights: [Float] = []
    for file in ["data/terrain/monaco-terrarium-z0-12.mbtiles", "data/terrain/monaco-terrain-rgb-z0-12.mbtiles"] {
      let source = try MBTilesSource(path: SharedData.path(file))
      #expect(source.metadata.encoding != nil)
      guard case .tile(.dem(let dem)) = loader.load([tile], from: BoundSource(source))[tile] else {
        Issue.record("\(file): expected a DEM tile")
        continue
      }
      heights.append(dem.height(x: px, y: py))
    }
    #expect(heights.count == 2)
    #expect(heights.allSatisfy { abs($0 - 1125) < 40 }, "\(heights)")
    #expect(abs(heights[0] - heights[1]) < 1)
  }
}

@Suite struct BadSourceTests {
  func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> String {
    let directory = NSTemporaryDirectory() + "tessera-data-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = "\(directory)/\(name)"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func missingFilesAreNamed() {
    #expect(throws: TileSourceError.open(source: "/nonexistent/a.mbtiles", reason: "no such file")) {
      try MBTilesSource(path: "/nonexistent/a.mbtiles")
    }
    #expect(throws: TileSourceError.open(source: "/nonexistent/a.pmtiles", reason: "no such file")) {
      try PMTilesSource(path: "/nonexistent/a.pmtiles")
    }
    #expect(throws: TileSourceError.self) { try FolderSource(path: "/nonexistent/tiles") }
  }

  @Test func notADatabaseIsSaidSo() throws {
    let path = try temporaryFile("fake.mbtiles", Array(String(repeating: "this is not sqlite ", count: 100).utf8))
    do {
      _ = try MBTilesSource(path: path)
      Issue.record("opened a text file as MBTiles")
    } catch {
      #expect(error.description.contains("not an SQLite database"), "\(error)")
    }
  }

  static let badHeaders: [([UInt8], String)] = [
    (Array("NotTiles".utf8) + [UInt8](repeating: 0, count: 200), "bad magic number"),
    (Array("PMTiles".utf8) + [2] + [UInt8](repeating: 0, count: 200), "version 2 is not supported"),
    (Array("PMTiles".utf8) + [3] + [UInt8](repeating: 0, count: 10), "bad magic number"),
  ]

  @Test(arguments: badHeaders)
  func badPMTilesHeadersAreNamed(_ bytes: [UInt8], _ message: String) throws {
    let path = try temporaryFile("bad.pmtiles", bytes)
    do {
      _ = try PMTilesSource(path: path)
      Issue.record("opened: \(message)")
    } catch {
      #expect(error.description.contains(message), "\(error)")
    }
  }

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func truncatedAndMutatedPMTilesNeverCrash() throws {
    let original = try SharedData.bytes(ArchiveSourceTests.pmtiles)
    let truncated = try temporaryFile("cut.pmtiles", Array(original.prefix(5000)))
    #expect(throws: TileSourceError.self) { try PMTilesSource(path: truncated) }
    var random = SeededRandom(seed: 77)
    var opened = 0
    for iteration in 0..<150 {
      // Mutate the header and directories only (the first 16 KiB), keep the rest.
      let mutant = random.mutate(Array(original.prefix(16384))) + original.dropFirst(16384)
      let path = try temporaryFile("m\(iteration).pmtiles", Array(mutant))
      defer { try? FileManager.default.removeItem(atPath: path) }
      guard let source = try? PMTilesSource(path: path) else { continue }
      opened += 1
      for tile in [TileID(z: 14, x: 8529, y: 5974), TileID(z: 0, x: 0, y: 0), TileID(z: 13, x: 4265, y: 2987)] {
        if case .data(let bytes) = try? source.fetch(tile) { _ = try? MVTDecoder.decode(bytes) }
      }
    }
    #expect(opened < 150)
  }

  @Test func hilbertTileIDsFollowThePMTilesCurve() {
    // Zoom 0 is id 0; zoom 1 runs (0,0), (0,1), (1,1), (1,0) as ids 1…4.
    let ids = [(0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 1, 1), (1, 1, 0)].map {
      PMTilesSource.tileID(z: $0.0, x: $0.1, y: $0.2)
    }
    #expect(ids == [0, 1, 2, 3, 4])
    #expect(PMTilesSource.tileID(z: 2, x: 0, y: 0) == 5)
  }
}
