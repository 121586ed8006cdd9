import Foundation
import Synchronization
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraTestSupport
import Testing

/// A source that counts fetches and takes a while, to test the loader.
final class CountingSource: TileSource {
  let name = "counting"
  let metadata = TileSourceMetadata(format: .mvt, minZoom: 0, maxZoom: 14)
  let fetches = Mutex<[TileID: Int]>([:])
  /// Fetches running now and the most at once.
  let running = Mutex<(now: Int, peak: Int)>((0, 0))
  let delay: Double

  init(delay: Double = 0.05) {
    self.delay = delay
  }

  func fetch(_ tile: TileID) throws(TileSourceError) -> TileFetch {
    fetches.withLock { $0[tile, default: 0] += 1 }
    running.withLock { state in
      state.now += 1
      state.peak = max(state.peak, state.now)
    }
    Thread.sleep(forTimeInterval: delay)
    running.withLock { $0.now -= 1 }
    if tile.x == 1 { return .noTile }
    if tile.x == 2 { throw TileSourceError.tileRead(source: name, tile: tile, reason: "broken on purpose") }
    return .decoded(.vector(VectorTile(layers: [VectorTileLayer(name: "l\(tile.x)")])))
  }
}

@Suite struct TileLoaderTests {
  @Test func concurrentRequestsForOneTileDecodeItOnce() throws {
    let source = CountingSource(delay: 0.2)
    let loader = TileLoader(workerCount: 4)
    let tile = TileID(z: 5, x: 3, y: 3)
    let batches = (0..<8).map { _ in loader.start([tile], from: BoundSource(source)) }
    let results = batches.map { $0.wait() }
    #expect(results.allSatisfy { $0[tile]?.decoded != nil })
    #expect(source.fetches.withLock { $0[tile] } == 1)
    // Now cached: no further fetch.
    _ = loader.load([tile], from: BoundSource(source))
    #expect(source.fetches.withLock { $0[tile] } == 1)
  }

  @Test func noTileIsDistinctFromAnErrorAndErrorsAreNotCached() throws {
    let source = CountingSource(delay: 0)
    let loader = TileLoader()
    let tiles = [TileID(z: 5, x: 1, y: 0), TileID(z: 5, x: 2, y: 0), TileID(z: 5, x: 3, y: 0)]
    let results = loader.load(tiles, from: BoundSource(source))
    guard case .noTile = results[tiles[0]], case .failed(let error) = results[tiles[1]], case .tile = results[tiles[2]]
    else {
      Issue.record("unexpected results \(results)")
      return
    }
    #expect(error.description == "counting: tile 5/2/0: broken on purpose")
    _ = loader.load(tiles, from: BoundSource(source))
    #expect(source.fetches.withLock { $0[tiles[1]] } == 2, "a failed tile is tried again")
    #expect(source.fetches.withLock { $0[tiles[0]] } == 1, "no tile here is remembered")
  }

  @Test func workRunsOnEveryWorkerAtOnce() throws {
    let source = CountingSource(delay: 0.2)
    let loader = TileLoader(workerCount: 6)
    let tiles = (0..<12).map { TileID(z: 5, x: 3, y: $0) }
    let results = loader.load(tiles, from: BoundSource(source))
    #expect(results.count == 12)
    #expect(source.running.withLock { $0.peak } == 6)
  }

  @Test func discardedTilesAreLoadedAgainEvenWhileALoadIsUnderWay() throws {
    let source = CountingSource(delay: 0.3)
    let loader = TileLoader(workerCount: 2)
    let tile = TileID(z: 5, x: 3, y: 3)
    // A load under way when the tiles are discarded: what it brings is not cached, and a
    // request made after the discard does not wait for it but loads the tile again.
    let before = loader.start([tile], from: BoundSource(source))
    Thread.sleep(forTimeInterval: 0.05)
    loader.discardCachedTiles()
    let after = loader.start([tile], from: BoundSource(source))
    #expect(before.wait()[tile]?.decoded != nil && after.wait()[tile]?.decoded != nil)
    #expect(source.fetches.withLock { $0[tile] } == 2)
    // The second load is cached; the first (of the old generation) was not kept over it.
    _ = loader.load([tile], from: BoundSource(source))
    #expect(source.fetches.withLock { $0[tile] } == 2)
    loader.discardCachedTiles()
    _ = loader.load([tile], from: BoundSource(source))
    #expect(source.fetches.withLock { $0[tile] } == 3)
    // A result loaded before the cache was emptied is not stored after it.
    let cache = TileCache()
    let key = TileKey(source: "s", tile: tile)
    let begun = cache.generation
    cache.removeAll()
    cache.insert(.noTile, for: key, loadedIn: begun)
    #expect(cache.result(for: key) == nil)
    cache.insert(.noTile, for: key, loadedIn: cache.generation)
    #expect(cache.result(for: key) != nil)
  }

  @Test func aSourceOpenedBeforeADiscardNeitherFillsTheCacheNorServesLaterLoads() throws {
    // Two openings of one file (one identity): the first before the tiles were discarded (the
    // file may have been replaced since), the second after.
    let before = CountingSource(delay: 0.3)
    let after = CountingSource(delay: 0.3)
    let loader = TileLoader(workerCount: 2)
    let tile = TileID(z: 5, x: 3, y: 3)
    let key = TileKey(source: before.cacheIdentity, tile: tile)
    let opened = loader.cache.generation
    loader.discardCachedTiles()
    // The older opening's tile is drawn but not cached.
    #expect(loader.start([tile], from: BoundSource(before), generation: opened).wait()[tile]?.decoded != nil)
    #expect(loader.cache.result(for: key) == nil)
    // A load of the newer opening does not wait for one of the older under way.
    let old = loader.start([tile], from: BoundSource(before), generation: opened)
    Thread.sleep(forTimeInterval: 0.05)
    let new = loader.start([tile], from: BoundSource(after))
    #expect(old.wait()[tile]?.decoded != nil && new.wait()[tile]?.decoded != nil)
    #expect(before.fetches.withLock { $0[tile] } == 2 && after.fetches.withLock { $0[tile] } == 1)
    #expect(loader.cache.result(for: key) != nil)
  }

  @Test func cacheEvictsTheLeastRecentlyUsedBeyondItsBudget() {
    let cache = TileCache(budget: 10_000)
    let image = DecodedTile.raster(RGBAImage(width: 20, height: 20, fill: .white))
    for x in 0..<10 { cache.insert(.tile(image), for: TileKey(source: "s", tile: TileID(z: 4, x: x, y: 0))) }
    let usage = cache.usage
    #expect(usage.bytes <= 10_000 && usage.entries < 10)
    #expect(cache.result(for: TileKey(source: "s", tile: TileID(z: 4, x: 9, y: 0))) != nil)
    #expect(cache.result(for: TileKey(source: "s", tile: TileID(z: 4, x: 0, y: 0))) == nil)
  }
}

@Suite struct PyramidAndOverzoomTests {
  @Test func overzoomAndFallbackPickAncestors() {
    let pyramid = TilePyramid(minZoom: 2, maxZoom: 14)
    #expect(pyramid.dataTile(for: TileID(z: 16, x: 34118, y: 23897)) == TileID(z: 14, x: 8529, y: 5974))
    #expect(pyramid.dataTile(for: TileID(z: 10, x: 5, y: 5)) == TileID(z: 10, x: 5, y: 5))
    #expect(pyramid.dataTile(for: TileID(z: 1, x: 0, y: 0)) == nil)
    let loaded: Set<TileID> = [TileID(z: 12, x: 2132, y: 1493)]
    let fallback = pyramid.fallback(for: TileID(z: 14, x: 8529, y: 5974)) {
      loaded.contains($0) ? .vector(VectorTile(layers: [])) : nil
    }
    #expect(fallback?.0 == TileID(z: 12, x: 2132, y: 1493))
  }

  @Test func overzoomedGeometryIsClippedAndScaledToTheChild() {
    // A horizontal line across the whole parent at y = 1024, and a square in its north-west.
    var builder = VectorTileLayerBuilder(name: "l")
    builder.add(
      type: .lineString, geometry: [[TilePoint(x: 0, y: 1024), TilePoint(x: 4096, y: 1024)]], properties: [:])
    let square = [
      TilePoint(x: 100, y: 100), TilePoint(x: 1900, y: 100), TilePoint(x: 1900, y: 1900), TilePoint(x: 100, y: 1900),
      TilePoint(x: 100, y: 100),
    ]
    builder.add(type: .polygon, geometry: [square], properties: [:])
    builder.add(type: .point, geometry: [[TilePoint(x: 3000, y: 3000)]], properties: [:])
    let parent = TileID(z: 10, x: 4, y: 6)
    let child = TileID(z: 11, x: 8, y: 12)  // the north-west quarter
    guard
      case .vector(let tile) = TileOverzoom.tile(
        .vector(VectorTile(layers: [builder.build()])), from: parent, to: child, buffer: 0)
    else {
      Issue.record("not a vector tile")
      return
    }
    let features = tile.layers[0].features
    #expect(features.count == 2, "the point lies in another quarter")
    #expect(features[0].geometry == [[TilePoint(x: 0, y: 2048), TilePoint(x: 4096, y: 2048)]])
    let ring = features[1].geometry[0]
    #expect(ring.contains(TilePoint(x: 200, y: 200)) && ring.contains(TilePoint(x: 3800, y: 3800)))
    #expect(VectorFeature.doubledSignedArea(ring) > 0)
  }

  @Test func overzoomedImagesAreCroppedToTheChildsArea() {
    var image = RGBAImage(width: 256, height: 256, fill: .black)
    image.setPixel(x: 130, y: 10, (255, 0, 0, 255))
    let parent = TileID(z: 3, x: 1, y: 1)
    let child = TileID(z: 4, x: 3, y: 2)  // the north-east quarter
    guard case .raster(let cropped) = TileOverzoom.tile(.raster(image), from: parent, to: child) else {
      Issue.record("not a raster")
      return
    }
    #expect(cropped.width == 128 && cropped.height == 128)
    #expect(cropped.pixel(x: 2, y: 10) == (255, 0, 0, 255))
  }
}

@Suite struct FolderAndLocatorTests {
  @Test func folderSourceReadsATileTreeWithTileJSON() throws {
    let root = NSTemporaryDirectory() + "tessera-folder-\(UUID().uuidString)"
    let demo = DemoCitySource(seed: 3)
    for tile in [TileID(z: 14, x: 8529, y: 5974), TileID(z: 14, x: 8530, y: 5974)] {
      let path = "\(root)/\(tile.z)/\(tile.x)"
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      try Data(MVTEncoder.encode(demo.makeTile(tile))).write(to: URL(fileURLWithPath: "\(path)/\(tile.tmsY).pbf"))
    }
    try
      #"{"tilejson": "3.0.0", "scheme": "tms", "minzoom": 12, "maxzoom": 14, "tiles": ["x/{z}/{x}/{y}.pbf"], "name": "t"}"#
      .write(toFile: "\(root)/tilejson.json", atomically: true, encoding: .utf8)
    let source = try FolderSource(path: root)
    #expect(source.metadata.format == .mvt && source.metadata.minZoom == 12 && source.metadata.name == "t")
    #expect(source.countTiles() == 2)
    guard case .data(let bytes) = try source.fetch(TileID(z: 14, x: 8529, y: 5974)) else {
      Issue.record("tile missing")
      return
    }
    #expect(try MVTDecoder.decode(bytes) == demo.makeTile(TileID(z: 14, x: 8529, y: 5974)))
    guard case .noTile = try source.fetch(TileID(z: 14, x: 1, y: 1)) else {
      Issue.record("expected no tile")
      return
    }
  }

  @Test func locatorResolvesReferencesOnceEach() throws {
    let locator = TileSourceLocator(dataRoot: SharedData.root.map { "\($0)/data" } ?? "/tmp")
    let demo = try locator.open("demo://city?seed=9")
    #expect(demo.name == "demo://city?seed=9")
    #expect(try locator.open("demo://city?seed=9") === demo)
    #expect(throws: TileSourceError.self) { try locator.open("ftp://x/y") }
    #expect(throws: TileSourceError.self) { try locator.open("demo://village") }
    #expect(throws: TileSourceError.self) { try locator.open("nothing/here.mbtiles") }
    if SharedData.isAvailable {
      let relative = try locator.open("mbtiles://vector/monaco-openmaptiles.mbtiles")
      let absolute = try locator.open(SharedData.path("data/vector/monaco-openmaptiles.mbtiles"))
      #expect(relative === absolute)
      #expect(try locator.open("pmtiles://vector/monaco-openmaptiles.pmtiles").metadata.tileCount == 23)
    }
  }
}
