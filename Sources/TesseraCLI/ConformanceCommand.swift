import Foundation
import Tessera
import TesseraConformance
import TesseraGL
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// `tessera conformance`: runs MapLibre's render tests and reports pass counts per category.
enum ConformanceCommand: Command {
  static let name = "conformance"
  static let summary = "run MapLibre render tests (style + expected image) and report passes"
  static let options: [OptionSpec] = [
    .value("filter"), .value("report"), .value("output"), .value("gpu"), .flag("verbose"),
  ]

  static let help = """
    usage: tessera conformance DIR [--filter CATEGORY] [--report OUT.json] [--output DIR] [--verbose]

    Renders every case of a MapLibre render-test folder (render-tests/<category>/<case>/style.json
    with expected*.png; local:// URLs resolve against DIR) at its size, pixel ratio and camera
    (MapLibre zoom + 1), compares it as MapLibre Native's runner does (premultiplied, pixelmatch
    threshold \(PixelDiff.mapLibreThreshold), anti-aliased pixels excused, passing at or under
    the case's `allowed`), writes actual.png and diff.png of failures and prints passes per
    category. Exits 1 when a case that upstream does not ignore fails.

    options:
      --filter CATEGORY       only cases of this category (or whose id starts with it)
      --report OUT.json       write every case's outcome as JSON
      --output DIR            where failures' images go (default conformance-output)
      --verbose               print every case, not only failures
      --gpu SEL               as for render (default auto)
      --help                  show this text
    """

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let root = try arguments.requirePositionals(["DIR"])[0]
    let suite: ConformanceSuite
    do {
      suite = try ConformanceSuite(root: root)
    } catch {
      throw CommandFailure(error.description)
    }
    let cases = suite.cases(matching: arguments.value("filter"))
    guard !cases.isEmpty else { throw UsageError("no cases match --filter \(arguments.value("filter") ?? "")") }
    let device = try GLDevice(gpu: try arguments.value("gpu").map(ValueParsers.gpu) ?? .auto)
    let runner = ConformanceRunner(
      suite: suite, outputDirectory: arguments.value("output") ?? "conformance-output", device: device)
    var outcomes: [ConformanceRunner.Outcome] = []
    for test in cases {
      let outcome = runner.run(test)
      outcomes.append(outcome)
      if !outcome.passed || arguments.has("verbose") {
        let status = outcome.passed ? "pass" : (outcome.upstreamIgnored != nil ? "fail (ignored upstream)" : "FAIL")
        let detail =
          outcome.error ?? String(format: "%.5f of pixels differ (allowed %.5f)", outcome.difference, outcome.allowed)
        console.print("\(status) \(outcome.id): \(detail)")
        for warning in outcome.warnings { console.print("    \(warning)") }
      }
    }
    var categories: [String: (passed: Int, total: Int)] = [:]
    for outcome in outcomes {
      categories[outcome.category, default: (0, 0)].total += 1
      if outcome.passed { categories[outcome.category, default: (0, 0)].passed += 1 }
    }
    for (category, count) in categories.sorted(by: { $0.key < $1.key }) {
      console.print("\(category.padding(toLength: 34, withPad: " ", startingAt: 0)) \(count.passed)/\(count.total)")
    }
    let passed = outcomes.filter(\.passed).count
    let counted = outcomes.filter { $0.upstreamIgnored == nil }
    console.print(
      "passed \(passed) of \(outcomes.count) cases; \(counted.filter(\.passed).count) of \(counted.count) not ignored upstream"
    )
    if let reportPath = arguments.value("report") {
      let report: [JSONValue] = outcomes.map { outcome in
        var entry = JSONObject([
          ("case", .string(outcome.id)), ("passed", .bool(outcome.passed)),
          ("difference", .number(outcome.difference)), ("allowed", .number(outcome.allowed)),
          ("milliseconds", .number((outcome.milliseconds * 10).rounded() / 10)),
        ])
        if let error = outcome.error { entry["error"] = .string(error) }
        if let ignored = outcome.upstreamIgnored { entry["upstreamIgnored"] = .string(ignored) }
        return .object(entry)
      }
      try FileOutput.write(Array(JSONValue.array(report).serialized(pretty: true).utf8), to: reportPath)
    }
    return counted.allSatisfy(\.passed) ? 0 : 1
  }
}
