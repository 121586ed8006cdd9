import Foundation
import Tessera
import TesseraConformance
import TesseraGL
import TesseraTestSupport
import Testing

/// MapLibre's own render tests (../shared/conformance/maplibre-render-tests), rendered on
/// llvmpipe and compared with MapLibre's rule. Every case upstream does not ignore must pass,
/// except the near misses listed here with their measured difference.
@Suite struct ConformanceTests {
  /// Cases that differ from MapLibre by a few antialiased pixels of dash ends (fraction of
  /// pixels off, allowed 0.00015): MapLibre samples dash ends from a signed-distance atlas.
  static let nearMisses: Set<String> = [
    "line-dasharray/overscaled",  // 0.00026
    "line-dasharray/round/segments",  // 0.00098: 8 pixels of round dots
  ]

  static var suiteRoot: String? {
    SharedData.root.map { $0 + "/conformance/maplibre-render-tests" }
  }

  @Test func everyCountedCasePasses() throws {
    guard let root = ConformanceTests.suiteRoot, FileManager.default.fileExists(atPath: root + "/manifest.json") else {
      print("skipped MapLibre render tests: \(SharedData.skipReason)")
      return
    }
    let suite = try ConformanceSuite(root: root)
    #expect(suite.cases.count == 234)
    let output = NSTemporaryDirectory() + "tessera-conformance-\(getpid())"
    let runner = ConformanceRunner(suite: suite, outputDirectory: output, device: try GLDevice(gpu: .surfaceless))
    var failures: [String] = []
    var nearMissesPassing: [String] = []
    var passed = 0
    let counted = suite.cases.filter { $0.upstreamIgnored == nil }
    for test in counted {
      let outcome = runner.run(test)
      if outcome.passed {
        passed += 1
        if ConformanceTests.nearMisses.contains(test.id) { nearMissesPassing.append(test.id) }
      } else if !ConformanceTests.nearMisses.contains(test.id) {
        failures.append(
          "\(test.id): \(outcome.error ?? "difference \(outcome.difference), allowed \(outcome.allowed)")")
      }
    }
    print("MapLibre render tests: \(passed) of \(counted.count) counted cases pass; failures' images in \(output)")
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    #expect(nearMissesPassing.isEmpty, "now passing, remove from nearMisses: \(nearMissesPassing)")
  }

  @Test func suitesWithoutRenderTestsAreErrors() {
    #expect(throws: ConformanceError.self) { try ConformanceSuite(root: NSTemporaryDirectory() + "no-such-suite") }
  }
}
