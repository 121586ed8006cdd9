import Foundation
import Tessera
import TesseraData
import TesseraGL
import TesseraJSON
import TesseraNumbers

/// `tessera render --batch`: checks the flags, runs a ``BatchRenderer`` and reports images per
/// second and the resident-memory curve.
enum BatchCommand {
  /// Flags that describe a single render and make no sense with `--batch`.
  static let singleRenderOptions = [
    "scene", "output", "format", "quality", "animate-to", "animate", "duration", "fps", "easing", "accessibility",
  ]

  static func run(_ jobsPath: String, _ arguments: ParsedArguments, console: Console) throws -> Int32 {
    for option in singleRenderOptions where arguments.value(option) != nil {
      throw UsageError("--\(option) cannot be combined with --batch (put it in the jobs)")
    }
    let threads =
      try arguments.value("threads").map { text throws(UsageError) in
        try ValueParsers.integer(text, option: "threads", range: 1...256)
      } ?? ProcessInfo.processInfo.activeProcessorCount
    let gpu = try arguments.value("gpu").map(ValueParsers.gpu) ?? .auto
    if let report = arguments.value("report") {
      try FileOutput.refuseOverwriting([("--report", report)], inputs: [("--batch", jobsPath)])
    }
    let reads = ResourceLog()
    let (jobs, problems, inputs) = try BatchJobs.load(path: jobsPath, reads: reads)
    for problem in problems { console.printError("tessera render: \(problem)") }
    for warning in Set(jobs.flatMap(\.scene.warnings)).sorted() {
      console.printError("tessera render: warning: \(warning)")
    }
    guard !jobs.isEmpty else { throw CommandFailure("\(jobsPath): no jobs to render") }
    let renderer = BatchRenderer(jobs: jobs, threads: threads, gpu: gpu, inputs: inputs, reads: reads)
    let report = try renderer.run()
    for failure in report.failures { console.printError("tessera render: \(jobsPath) \(failure)") }
    let perSecond = Double(report.written) / max(report.seconds, 1e-9)
    console.print(
      "rendered \(report.written) of \(jobs.count + problems.count) images in \(format(report.seconds)) s "
        + "on \(threads) thread\(threads == 1 ? "" : "s"): \(format(perSecond)) images/s")
    let curve = report.residentCurve.map { "\($0.jobs): \(format(Double($0.bytes) / 1_048_576))" }
    console.print("resident memory (MiB) by images done: \(curve.joined(separator: ", "))")
    if let path = arguments.value("report") {
      var object = JSONObject()
      object["jobs"] = .number(Double(jobs.count + problems.count))
      object["images"] = .number(Double(report.written))
      object["failed"] = .number(Double(report.failures.count + problems.count))
      object["threads"] = .number(Double(threads))
      object["seconds"] = .number(rounded(report.seconds))
      object["images_per_second"] = .number(rounded(perSecond))
      object["resident_mib"] = .array(
        report.residentCurve.map { .array([.number(Double($0.jobs)), .number(rounded(Double($0.bytes) / 1_048_576))]) })
      try FileOutput.write(Array((JSONValue.object(object).serialized() + "\n").utf8), to: path)
    }
    return report.failures.isEmpty && problems.isEmpty ? 0 : 1
  }

  static func format(_ value: Double) -> String { String(format: "%.1f", value) }

  static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
