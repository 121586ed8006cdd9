import Dispatch
import Foundation
import Synchronization
import Tessera
import TesseraData
import TesseraGL
import TesseraImage

/// Renders many jobs in one process: `threads` threads, each with its own GL context, pulling
/// jobs in file order from a shared queue, all sharing one tile loader (one cache of decoded
/// tiles). A thread keeps its map between jobs that differ only in the camera (same size,
/// style or map type, data, no markers), so their tile geometry stays on the GPU.
final class BatchRenderer: Sendable {
  let jobs: [BatchJob]
  let threads: Int
  let gpu: GPUSelection
  let console: Console
  /// Shared by every thread's maps.
  let tileLoader: TileLoader
  private let nextJob = Atomic<Int>(0)
  private let progress: Mutex<Progress>
  /// Resident memory is sampled after every this many finished jobs (and after the last).
  let sampleInterval: Int

  /// What has been done so far.
  struct Progress {
    var written = 0
    var failures: [String] = []
    /// (jobs finished, resident bytes) samples.
    var residentCurve: [(jobs: Int, bytes: Int)] = []
  }

  /// The outcome of a whole batch.
  struct Report {
    let written: Int
    let failures: [String]
    let seconds: Double
    let residentCurve: [(jobs: Int, bytes: Int)]
  }

  init(jobs: [BatchJob], threads: Int, gpu: GPUSelection, console: Console, tileCacheBytes: Int = 512 << 20) {
    self.jobs = jobs
    self.threads = threads
    self.gpu = gpu
    self.console = console
    tileLoader = TileLoader(cache: TileCache(budget: tileCacheBytes))
    sampleInterval = max(1, jobs.count / 40)
    progress = Mutex(Progress(residentCurve: [(0, ResidentMemory.bytes())]))
  }

  /// Runs every job and waits for all threads.
  func run() -> Report {
    let start = DispatchTime.now()
    let group = DispatchGroup()
    for index in 0..<threads {
      group.enter()
      let thread = Thread { [self] in
        work()
        group.leave()
      }
      thread.name = "tessera-batch-\(index)"
      thread.stackSize = 16 << 20
      thread.start()
    }
    group.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    return progress.withLock {
      Report(written: $0.written, failures: $0.failures, seconds: seconds, residentCurve: $0.residentCurve)
    }
  }

  /// One thread's loop: its own device, its current map, jobs until the queue is empty.
  private func work() {
    let device: GLDevice
    do {
      device = try GLDevice(gpu: gpu)
    } catch {
      // Without a context this thread takes no jobs; the others carry on.
      progress.withLock { $0.failures.append("cannot create a GL context for a batch thread: \(error)") }
      return
    }
    var current: (map: Map, key: ReuseKey)?
    while true {
      let index = nextJob.add(1, ordering: .relaxed).oldValue
      guard index < jobs.count else { break }
      let job = jobs[index]
      do {
        let key = ReuseKey(job.scene)
        let map: Map
        if let current, let key, current.key == key {
          map = current.map
          map.camera = job.scene.options.camera
          for update in job.scene.updates { map.moveCamera(update) }
        } else {
          current = nil
          map = try Map(scene: job.scene, device: device, tileLoader: tileLoader)
          if let key { current = (map, key) }
        }
        let snapshot = try map.snapshot()
        let bytes = try ImageCodec.encode(snapshot.image, as: job.format, quality: nil)
        try FileOutput.write(bytes, to: job.output)
        finish(failure: nil)
      } catch {
        finish(failure: "line \(job.line) (\(job.output)): \(error)")
      }
    }
  }

  private func finish(failure: String?) {
    let sample = progress.withLock { progress -> Bool in
      if let failure { progress.failures.append(failure) } else { progress.written += 1 }
      let done = progress.written + progress.failures.count
      return done % sampleInterval == 0 || done == jobs.count
    }
    guard sample else { return }
    let bytes = ResidentMemory.bytes()
    progress.withLock { progress in
      progress.residentCurve.append((progress.written + progress.failures.count, bytes))
    }
  }

  /// What must match for a thread to keep its map for the next job: everything but the camera
  /// and the camera updates. Scenes with markers always get a new map.
  struct ReuseKey: Equatable {
    let options: MapOptions
    let stylePath: String?
    let dataRoot: String

    init?(_ scene: Scene) {
      guard scene.markers == nil else { return nil }
      var options = scene.options
      options.camera = MapOptions.defaultCamera
      self.options = options
      stylePath = scene.stylePath
      dataRoot = scene.dataRoot
    }
  }
}

/// The process's resident memory, from `/proc/self/statm`.
enum ResidentMemory {
  /// Resident bytes now (0 where `/proc` cannot be read).
  static func bytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}
