import Dispatch
import Foundation
import Synchronization
import Tessera
import TesseraData
import TesseraGL
import TesseraImage
import TesseraNumbers

/// Renders a jobs file on a ``RenderPool``: the pool's threads render in file order and hand
/// each image to a writer stage that encodes and writes it on threads of its own, so PNG
/// encoding and the disk's waits overlap the next renders instead of holding a render thread.
/// At most ``writesInFlight`` images wait for or are being written; a render thread that finds
/// the stage full waits, so memory stays bounded whatever the disk's speed.
final class BatchRenderer: Sendable {
  let jobs: [BatchJob]
  let threads: Int
  let gpu: GPUSelection
  /// What the batch reads: no job writes over it (the files its renders read are added as
  /// they are read, before each write).
  private let inputs: Mutex<OutputGuard>
  let reads: ResourceLog
  private let progress: Mutex<Progress>
  /// Resident memory is sampled after every this many finished jobs (and after the last).
  let sampleInterval: Int
  /// Images rendered but not yet written, at most: two per render thread.
  let writesInFlight: Int
  /// Encodes and writes images, several at once.
  private let writers = DispatchQueue(label: "tessera-batch-write", attributes: .concurrent)

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

  init(jobs: [BatchJob], threads: Int, gpu: GPUSelection, inputs: OutputGuard, reads: ResourceLog) {
    self.jobs = jobs
    self.threads = threads
    self.gpu = gpu
    self.inputs = Mutex(inputs)
    self.reads = reads
    sampleInterval = max(1, jobs.count / 40)
    writesInFlight = 2 * threads
    progress = Mutex(Progress(residentCurve: [(0, ResidentMemory.bytes())]))
  }

  /// Runs every job and waits for all of them; throws when no thread could make a GL context.
  func run() throws -> Report {
    let start = DispatchTime.now()
    let pool = try RenderPool(threads: threads, gpu: gpu)
    progress.withLock { $0.failures += pool.startUpFailures }
    let done = DispatchGroup()
    let slots = DispatchSemaphore(value: writesInFlight)
    for job in jobs {
      done.enter()
      pool.submit(job.scene) { [self, writers] result in
        slots.wait()
        writers.async { [self] in
          defer {
            slots.signal()
            done.leave()
          }
          write(job, result)
        }
      }
    }
    done.wait()
    pool.shutdown()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    return progress.withLock {
      Report(written: $0.written, failures: $0.failures, seconds: seconds, residentCurve: $0.residentCurve)
    }
  }

  /// Encodes and writes one job's image, or records why it could not be.
  private func write(_ job: BatchJob, _ result: Result<Snapshot, any Error>) {
    do {
      let bytes = try job.format.encode(try result.get().image)
      try inputs.withLock { inputs throws(CommandFailure) in
        inputs.add(reads)
        try inputs.check(job.output, option: "field 'output'")
      }
      try FileOutput.write(bytes, to: job.output)
      finish(failure: nil)
    } catch {
      finish(failure: "line \(job.line) (\(job.output)): \(error)")
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
