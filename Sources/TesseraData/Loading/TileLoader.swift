import Dispatch
import Foundation
import Synchronization
import TesseraGeo
import TesseraNumbers

/// A source with what its tiles are to be decoded as.
package struct BoundSource: Sendable {
  package let source: any TileSource
  package let kind: TileContentKind

  package init(_ source: any TileSource, kind: TileContentKind? = nil) {
    self.source = source
    self.kind = kind ?? TileContentKind(metadata: source.metadata)
  }

  /// The cache identity of the source.
  package var identity: String { source.cacheIdentity }
}

/// Fetches and decodes tiles on worker threads, with results cached.
///
/// The thread that renders only waits for results and uploads them; fetching and decoding run
/// on ``workerCount`` threads the loader owns. A tile requested again while its
/// decode is under way waits for that decode instead of starting another, so no tile is ever
/// decoded twice at once.
public final class TileLoader: Sendable {
  package let cache: TileCache
  /// Fetch-and-decode jobs running at once.
  package let workerCount: Int
  private let workers: WorkerPool
  /// Loads under way by tile and cache generation (a tile asked for after the cache was
  /// emptied does not wait for a load begun before).
  private let inFlight = Mutex<[InFlightKey: PendingLoad]>([:])

  private struct InFlightKey: Hashable {
    let tile: TileKey
    let generation: Int
  }
  private let decodes = Atomic<Int>(0)

  public init(cache: TileCache = TileCache(), workerCount: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.cache = cache
    self.workerCount = max(workerCount, 1)
    workers = WorkerPool(threads: workerCount, name: "tessera-tiles")
  }

  /// How many decodes have run (fetches that produced bytes or a decoded tile).
  package var decodeCount: Int { decodes.load(ordering: .relaxed) }

  /// One tile's load, shared by every batch that asks for the tile while it runs.
  final class PendingLoad: Sendable {
    let group = DispatchGroup()
    private let outcome = Mutex<TileLoadResult?>(nil)

    /// A load already finished with `result`.
    init(finished result: TileLoadResult) {
      outcome.withLock { $0 = result }
    }

    /// A load under way (its group entered).
    init() {
      group.enter()
    }

    func finish(_ result: TileLoadResult, nanoseconds: UInt64) {
      outcome.withLock { $0 = result }
      busyNanoseconds.store(Int(clamping: nanoseconds), ordering: .relaxed)
      group.leave()
    }

    /// Nanoseconds the worker spent fetching and decoding (0 for cached results).
    let busyNanoseconds = Atomic<Int>(0)

    var result: TileLoadResult? { outcome.withLock { $0 } }
  }

  /// A set of tiles being loaded.
  package struct Batch: Sendable {
    let tiles: [TileID]
    let loads: [PendingLoad]
    /// Whether this batch started each load (rather than finding it cached or under way).
    let started: [Bool]

    /// Milliseconds the workers spent fetching and decoding the tiles this batch started, summed
    /// over workers (so it can exceed the wall time); complete once ``wait(timeout:)`` returned.
    package var fetchAndDecodeMilliseconds: Double {
      zip(loads, started).reduce(0) { sum, pair in
        pair.1 ? sum + Double(pair.0.busyNanoseconds.load(ordering: .relaxed)) / 1e6 : sum
      }
    }

    /// Waits for every tile (at most `timeout` seconds in all) and returns what each gave;
    /// tiles not done in time are missing from the result.
    package func wait(timeout: Double = 60) -> [TileID: TileLoadResult] {
      wait(until: DispatchTime.now() + max(timeout, 0))
    }

    /// Waits for every tile until `deadline` and returns what each gave; tiles not done by
    /// then are missing from the result.
    package func wait(until deadline: DispatchTime) -> [TileID: TileLoadResult] {
      var results: [TileID: TileLoadResult] = [:]
      for (tile, load) in zip(tiles, loads) {
        guard load.group.wait(timeout: deadline) == .success, let result = load.result else { continue }
        results[tile] = result
      }
      return results
    }
  }

  /// Starts loading `tiles` from `source`, opened when the cache's generation was `generation`
  /// (nil: now); cached tiles are ready at once. Loads of an older generation than the cache's
  /// are neither cached nor joined by loads of the current one.
  package func start(_ tiles: [TileID], from source: BoundSource, generation: Int? = nil) -> Batch {
    var loads: [PendingLoad] = []
    var started: [Bool] = []
    let generation = generation ?? cache.generation
    for tile in tiles {
      let key = TileKey(source: source.identity, tile: tile)
      let running = InFlightKey(tile: key, generation: generation)
      if let cached = cache.result(for: key) {
        loads.append(PendingLoad(finished: cached))
        started.append(false)
        continue
      }
      let (pending, isNew) = inFlight.withLock { loads -> (PendingLoad, Bool) in
        if let pending = loads[running] { return (pending, false) }
        let pending = PendingLoad()
        loads[running] = pending
        return (pending, true)
      }
      loads.append(pending)
      started.append(isNew)
      guard isNew else { continue }
      workers.submit { [self] in
        let begin = DispatchTime.now().uptimeNanoseconds
        let result = load(tile, from: source)
        let busy = DispatchTime.now().uptimeNanoseconds - begin
        cache.insert(result, for: key, loadedIn: generation)
        inFlight.withLock { $0[running] = nil }
        pending.finish(result, nanoseconds: busy)
      }
    }
    return Batch(tiles: tiles, loads: loads, started: started)
  }

  /// Drops the decoded tiles and what the loads under way would bring: tiles asked for from
  /// now on are read again (their files may have been replaced).
  package func discardCachedTiles() {
    cache.removeAll()
  }

  /// Loads `tiles` and waits for them.
  package func load(_ tiles: [TileID], from source: BoundSource, timeout: Double = 60) -> [TileID: TileLoadResult] {
    start(tiles, from: source).wait(timeout: timeout)
  }

  /// Fetches and decodes one tile on the calling (worker) thread.
  func load(_ tile: TileID, from bound: BoundSource) -> TileLoadResult {
    do {
      switch try bound.source.fetch(tile) {
      case .noTile:
        return .noTile
      case .decoded(let decoded):
        decodes.add(1, ordering: .relaxed)
        return .tile(decoded)
      case .data(let bytes):
        decodes.add(1, ordering: .relaxed)
        do {
          return .tile(try TileDecoder.decode(bytes, as: bound.kind))
        } catch {
          return .failed(.tileDecode(source: bound.source.name, tile: tile, reason: error.reason))
        }
      }
    } catch {
      return .failed(error)
    }
  }
}
