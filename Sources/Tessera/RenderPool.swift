import Dispatch
import Foundation
import Synchronization
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraRender

/// Renders scenes on a fixed set of threads, each with its own GL context (a context is
/// current on one thread), all sharing one ``TileLoader`` and so one cache of decoded tiles.
/// Jobs are taken in the order they were submitted. A thread keeps its map between jobs that
/// differ only in the camera, markers and overlays (same size, style or map type, data), so their tile
/// geometry stays on the GPU.
///
/// Thread safety: every method may be called from any thread. Completions run on the pool's
/// threads, one job at a time per thread; a job's images are the same bytes whichever thread
/// renders it and whatever ran before on that thread.
public final class RenderPool: Sendable {
  /// One submitted render: a scene, or a metatile of raster tiles.
  enum Job: Sendable {
    case scene(
      Scene, alpha: AlphaRepresentation, cancellation: RenderCancellation?,
      completion: @Sendable (Result<Snapshot, any Error>) -> Void)
    case tiles(TileJob, completion: @Sendable (Result<[TileID: RGBAImage], any Error>) -> Void)
  }

  /// The jobs waiting, shared by the threads.
  final class JobQueue: Sendable {
    private struct State {
      var jobs: [Job] = []
      var next = 0
      var closed = false
    }

    private let state = Mutex(State())
    /// Counts jobs waiting (and, once closed, one wake-up per thread).
    private let available = DispatchSemaphore(value: 0)

    /// Queues a job; false once closed.
    func append(_ job: Job) -> Bool {
      let accepted = state.withLock { state -> Bool in
        guard !state.closed else { return false }
        state.jobs.append(job)
        return true
      }
      if accepted { available.signal() }
      return accepted
    }

    /// The next job, waiting for one; nil once the queue is closed and empty.
    func next() -> Job? {
      available.wait()
      return state.withLock { state -> Job? in
        guard state.next < state.jobs.count else { return nil }
        defer {
          state.next += 1
          // Drop taken jobs now and then so a long-lived pool does not grow.
          if state.next == state.jobs.count || state.next >= 1024 {
            state.jobs.removeFirst(state.next)
            state.next = 0
          }
        }
        return state.jobs[state.next]
      }
    }

    /// Closes the queue and wakes `threads` waiting threads; false when it was closed already.
    func close(waking threads: Int) -> Bool {
      let closing = state.withLock { state -> Bool in
        guard !state.closed else { return false }
        state.closed = true
        return true
      }
      guard closing else { return false }
      for _ in 0..<threads { available.signal() }
      return true
    }
  }

  /// Shared by every thread's maps.
  public let tileLoader: TileLoader
  /// Threads rendering (those that made their GL context).
  public let threadCount: Int
  /// Why threads that could not make a GL context take no jobs, one message each.
  public let startUpFailures: [String]
  private let queue = JobQueue()
  private let stopped = DispatchGroup()
  /// Counts ``discardKeptContent()`` calls; a thread drops what it keeps when the count moves.
  private let keptGeneration = KeptGeneration()

  /// The count of ``discardKeptContent()`` calls, shared with the threads.
  final class KeptGeneration: Sendable {
    let value = Atomic<Int>(0)
  }

  /// Starts `threads` threads, each making a GL context for `gpu`, sharing a tile cache of
  /// `tileCacheBytes`. Throws when no thread could make a context (the first thread's error).
  ///
  /// Thread *i* renders on display lane *i* (see `HeadlessDisplay`): on llvmpipe each lane
  /// rasterises apart from the others, so the render threads do not queue for one rasteriser.
  /// Threads beyond the platform's lanes share them, and devices on one lane take turns at
  /// their GL calls (`ContextExclusion`: llvmpipe's contexts read each other's state).
  /// Every lane keeps llvmpipe's default of one rasteriser thread per core (`LP_NUM_THREADS`
  /// wins when set): a thread rendering alone (a service at low load) rasterises on all the
  /// cores, and when every lane is busy their threads (two lanes at most) share the cores at no
  /// measured cost. On two cores, against lanes splitting the cores between them: 600 Monaco
  /// batch jobs at 512² gave the same images/s on two and four threads, and one request at a
  /// time to `tessera serve` 1.2× the images/s (`make bench-serve`, concurrency 1).
  public init(
    threads: Int = ProcessInfo.processInfo.activeProcessorCount, gpu: GPUSelection = .auto,
    tileCacheBytes: Int = 512 << 20
  ) throws {
    precondition(threads > 0, "a render pool needs a thread")
    tileLoader = TileLoader(cache: TileCache(budget: tileCacheBytes))
    let started = DispatchSemaphore(value: 0)
    let outcomes = Mutex<[Result<Void, any Error>]>([])
    for index in 0..<threads {
      stopped.enter()
      let thread = Thread { [stopped, queue, tileLoader, keptGeneration] in
        defer { stopped.leave() }
        let device: GLDevice
        do {
          device = try GLDevice(gpu: gpu, lane: index, rasterThreads: nil)
        } catch {
          outcomes.withLock { $0.append(.failure(error)) }
          started.signal()
          return
        }
        outcomes.withLock { $0.append(.success(())) }
        started.signal()
        RenderPool.work(device: device, queue: queue, tileLoader: tileLoader, generation: keptGeneration)
      }
      thread.name = "tessera-render-\(index)"
      thread.stackSize = 16 << 20
      thread.start()
    }
    for _ in 0..<threads { started.wait() }
    let results = outcomes.withLock { $0 }
    var failures: [String] = []
    var firstError: (any Error)?
    for case .failure(let error) in results {
      failures.append("cannot create a GL context for a render thread: \(error)")
      firstError = firstError ?? error
    }
    threadCount = threads - failures.count
    startUpFailures = failures
    if threadCount == 0, let firstError {
      stopped.wait()
      throw firstError
    }
  }

  /// Closes the queue without waiting: the threads finish the jobs submitted and stop.
  deinit {
    _ = queue.close(waking: threadCount)
  }

  /// Renders `scene` on one of the pool's threads and calls `completion` there with the
  /// snapshot (`alpha` as ``Map/snapshot(alpha:)`` takes it) or the error. Returns at once;
  /// after ``shutdown()`` the completion gets ``RenderPoolError/shutDown`` at once. Once
  /// `cancellation` is cancelled the job is skipped, or stops at its next check, with
  /// ``RenderCancelledError``.
  public func submit(
    _ scene: Scene, alpha: AlphaRepresentation = .straight, cancellation: RenderCancellation? = nil,
    completion: @escaping @Sendable (Result<Snapshot, any Error>) -> Void
  ) {
    guard queue.append(.scene(scene, alpha: alpha, cancellation: cancellation, completion: completion)) else {
      completion(.failure(RenderPoolError.shutDown))
      return
    }
  }

  /// Renders the tiles of `job` on one of the pool's threads and calls `completion` there.
  /// Each thread keeps the tile renderers of the last few tile sets it drew (their maps and GL
  /// resources) for later jobs of the same set.
  public func submit(
    _ job: TileJob, completion: @escaping @Sendable (Result<[TileID: RGBAImage], any Error>) -> Void
  ) {
    guard queue.append(.tiles(job, completion: completion)) else {
      completion(.failure(RenderPoolError.shutDown))
      return
    }
  }

  /// Renders the tiles of `job` on one of the pool's threads and waits for them.
  public func render(_ job: TileJob) throws -> [TileID: RGBAImage] {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<Result<[TileID: RGBAImage], any Error>?>(nil)
    submit(job) { outcome in
      result.withLock { $0 = outcome }
      done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
  }

  /// Renders `scene` on one of the pool's threads and waits for it.
  public func render(_ scene: Scene, alpha: AlphaRepresentation = .straight) throws -> Snapshot {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<Result<Snapshot, any Error>?>(nil)
    submit(scene, alpha: alpha) { outcome in
      result.withLock { $0 = outcome }
      done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
  }

  /// Makes every job submitted from now on read its style and tiles anew: with a map (or tile
  /// renderer) made for it, not one a thread kept from an earlier job, and from tiles loaded
  /// again, not the shared cache's decoded ones. For when style, sprite or tile files the
  /// scenes name have changed on disk (a service reloading its configuration): kept maps and
  /// cached tiles are matched by settings and paths, not by the files' contents. (Local font
  /// folders are scanned once per process.)
  public func discardKeptContent() {
    tileLoader.discardCachedTiles()
    keptGeneration.value.add(1, ordering: .sequentiallyConsistent)
  }

  /// Lets the threads finish the jobs submitted so far, then stops them (their maps and GL
  /// contexts are released) and waits for them. Later submissions fail. Not to be called from
  /// a completion (it would wait for its own thread).
  public func shutdown() {
    _ = queue.close(waking: threadCount)
    stopped.wait()
  }

  /// One thread's loop: jobs until the queue is closed and empty.
  private static func work(device: GLDevice, queue: JobQueue, tileLoader: TileLoader, generation: KeptGeneration) {
    var current: (map: Map, key: ReuseKey)?
    var tileRenderers: [(set: TileJob.TileSet, renderer: TileRenderer)] = []
    var keptAt = generation.value.load(ordering: .sequentiallyConsistent)
    while let next = queue.next() {
      // A job submitted after discardKeptContent() is taken after it: this load sees the new count.
      let now = generation.value.load(ordering: .sequentiallyConsistent)
      if now != keptAt {
        current = nil
        tileRenderers.removeAll()
        keptAt = now
      }
      let job: Scene
      let alpha: AlphaRepresentation
      let cancellation: RenderCancellation?
      let completion: @Sendable (Result<Snapshot, any Error>) -> Void
      switch next {
      case .scene(let scene, let sceneAlpha, let sceneCancellation, let sceneCompletion):
        (job, alpha, cancellation, completion) = (scene, sceneAlpha, sceneCancellation, sceneCompletion)
      case .tiles(let tiles, let tilesCompletion):
        tilesCompletion(
          Result {
            let renderer: TileRenderer
            if let index = tileRenderers.firstIndex(where: { $0.set == tiles.set }) {
              renderer = tileRenderers.remove(at: index).renderer
            } else {
              renderer = try TileRenderer(
                template: tiles.set.template, stylePath: tiles.set.stylePath, dataRoot: tiles.set.dataRoot,
                settings: tiles.set.settings, device: device, tileLoader: tileLoader)
            }
            // Most recently used last; at most four sets kept.
            tileRenderers.append((tiles.set, renderer))
            if tileRenderers.count > 4 { tileRenderers.removeFirst() }
            return try renderer.render(tiles.metatile)
          })
        continue
      }
      do {
        try cancellation?.check()
        let key = ReuseKey(job)
        let map: Map
        if let reused = current, let key, reused.key == key {
          map = reused.map
          map.resetContent()
          map.state = try job.mapState()
          map.cancellation = cancellation
          defer { map.cancellation = nil }
          try map.addMarkers(from: job)
        } else {
          current = nil
          map = try Map(preparation: MapPreparation(scene: job, tileLoader: tileLoader), device: device)
          map.cancellation = cancellation
          try map.addMarkers(from: job)
          map.applyFeatureStates(from: job)
          if let key { current = (map, key) }
        }
        map.cancellation = cancellation
        defer { map.cancellation = nil }
        let snapshot = try map.snapshot(alpha: alpha)
        completion(.success(snapshot))
      } catch {
        // A map left with content that failed (too much of it, a cancelled frame) is not kept.
        if error is ContentLimitError || error is RenderCancelledError { current = nil }
        completion(.failure(error))
      }
      MemoryReturn.afterJob()
    }
  }

  /// What must match for a thread to keep its map for the next job: everything but the camera,
  /// the camera updates, the markers and the overlays (a kept map has them replaced, its marker
  /// atlas made anew, so the bytes are those of a new map). Scenes with feature states always
  /// get a new map.
  struct ReuseKey: Equatable {
    let options: MapOptions
    let stylePath: String?
    let dataRoot: String

    init?(_ scene: Scene) {
      guard scene.featureStates.isEmpty else { return nil }
      var options = scene.options
      options.camera = MapOptions.defaultCamera
      self.options = options
      stylePath = scene.stylePath
      dataRoot = scene.dataRoot
    }
  }
}

/// Why a render pool did not render a job.
public enum RenderPoolError: Error, Sendable, CustomStringConvertible {
  /// The pool was shut down before the job was submitted.
  case shutDown

  public var description: String { "the render pool is shut down" }
}
