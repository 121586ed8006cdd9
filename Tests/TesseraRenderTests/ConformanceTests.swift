import Foundation
import Tessera
import TesseraConformance
import TesseraGL
import TesseraJSON
import TesseraTestSupport
import Testing

/// MapLibre's own render tests (../shared/conformance/maplibre-render-tests), rendered on
/// llvmpipe and compared with MapLibre's rule. Every case upstream does not ignore must pass.
@Suite struct ConformanceTests {
  /// Cases that differ from MapLibre by a few antialiased pixels (none at present; a case
  /// listed here may fail without failing the test, and must be removed once it passes).
  static let nearMisses: Set<String> = []

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

  /// The cases of ../shared/conformance/maplibre-more-tests (heatmap, patterns, image sources,
  /// sort keys, GeoJSON options, …) that MapLibre Native passes but Tessera does not yet, and
  /// why. Every other case Native passes must pass, and at least 90% of Native's passes.
  static let moreTestsKnownFailures: [String: String] = [
    "within/paint-line": "a self-intersecting polygon, which MapLibre Native repairs (even-odd union) before filling"
  ]

  @Test func moreTestsPassWhatMapLibreNativePasses() throws {
    guard let root = SharedData.root.map({ $0 + "/conformance/maplibre-more-tests" }),
      let peerBytes = FileManager.default.contents(atPath: root + "/peer-results.json")
    else {
      print("skipped MapLibre's more render tests: \(SharedData.skipReason)")
      return
    }
    let peer = try #require(try JSONParser.parse(Array(peerBytes)).object)
    let nativePasses = Set(peer.pairs.filter { $0.value["passed"] == .bool(true) }.map(\.key))
    let suite = try ConformanceSuite(root: root)
    let output = NSTemporaryDirectory() + "tessera-more-tests-\(getpid())"
    let runner = ConformanceRunner(suite: suite, outputDirectory: output, device: try GLDevice(gpu: .surfaceless))
    var failures: [String] = []
    var knownPassing: [String] = []
    var passed = 0
    for test in suite.cases where nativePasses.contains(test.id) {
      let outcome = runner.run(test)
      if outcome.passed {
        passed += 1
        if ConformanceTests.moreTestsKnownFailures[test.id] != nil { knownPassing.append(test.id) }
      } else if ConformanceTests.moreTestsKnownFailures[test.id] == nil {
        failures.append(
          "\(test.id): \(outcome.error ?? "difference \(outcome.difference), allowed \(outcome.allowed)")")
      }
    }
    print(
      "MapLibre more render tests: \(passed) of the \(nativePasses.count) cases MapLibre Native passes; "
        + "failures' images in \(output)")
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    #expect(knownPassing.isEmpty, "now passing, remove from moreTestsKnownFailures: \(knownPassing)")
    #expect(Double(passed) >= 0.9 * Double(nativePasses.count))
  }

  /// The point-placement cases of ../shared/conformance/maplibre-symbol-tests that MapLibre
  /// Native passes but Tessera does not yet, and why. Every other such case must pass, and at
  /// least 90% of Native's passes. Cases with line placement (`symbol-placement: line` or
  /// `line-center`) are counted separately: line labels are not drawn yet.
  static let symbolKnownFailures: [String: String] = [:]

  /// The line-placement cases MapLibre Native passes that Tessera does not yet, and why.
  /// Every other such case must pass.
  static let lineKnownFailures: [String: String] = [:]

  /// Whether a case's style has a symbol layer placed along lines.
  static func placesAlongLines(_ style: JSONValue) -> Bool {
    (style["layers"]?.array ?? []).contains { layer in
      layer["type"]?.string == "symbol" && (layer["layout"]?["symbol-placement"]?.string ?? "point") != "point"
    }
  }

  @Test func symbolTestsPassWhatMapLibreNativePasses() throws {
    guard let root = SharedData.root.map({ $0 + "/conformance/maplibre-symbol-tests" }),
      let peerBytes = FileManager.default.contents(atPath: root + "/peer-results.json")
    else {
      print("skipped MapLibre's symbol render tests: \(SharedData.skipReason)")
      return
    }
    let peer = try #require(try JSONParser.parse(Array(peerBytes)).object)
    let nativePasses = Set(peer.pairs.filter { $0.value["passed"] == .bool(true) }.map(\.key))
    let suite = try ConformanceSuite(root: root)
    let output = NSTemporaryDirectory() + "tessera-symbol-tests-\(getpid())"
    let runner = ConformanceRunner(suite: suite, outputDirectory: output, device: try GLDevice(gpu: .surfaceless))
    var failures: [String] = []
    var knownPassing: [String] = []
    var (pointCases, pointPasses, lineCases, linePasses) = (0, 0, 0, 0)
    for test in suite.cases where nativePasses.contains(test.id) {
      let outcome = runner.run(test)
      if ConformanceTests.placesAlongLines(test.style) {
        lineCases += 1
        if outcome.passed {
          linePasses += 1
          if ConformanceTests.lineKnownFailures[test.id] != nil { knownPassing.append(test.id) }
        } else if ConformanceTests.lineKnownFailures[test.id] == nil {
          failures.append("\(test.id) (along lines): difference \(outcome.difference), allowed \(outcome.allowed)")
        }
        continue
      }
      pointCases += 1
      if outcome.passed {
        pointPasses += 1
        if ConformanceTests.symbolKnownFailures[test.id] != nil { knownPassing.append(test.id) }
      } else if ConformanceTests.symbolKnownFailures[test.id] == nil {
        failures.append(
          "\(test.id): \(outcome.error ?? "difference \(outcome.difference), allowed \(outcome.allowed)")")
      }
    }
    print(
      "MapLibre symbol render tests: \(pointPasses) of the \(pointCases) point-placement cases MapLibre Native "
        + "passes, \(linePasses) of its \(lineCases) line-placement cases; failures' images in \(output)")
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    #expect(knownPassing.isEmpty, "now passing, remove from the known failures: \(knownPassing)")
    #expect(Double(pointPasses) >= 0.9 * Double(pointCases))
  }

  /// The tile-mode cases (`mapMode: tile`; MapLibre Native through pymgl renders only static
  /// maps, so the peer has no result for them) that do not pass yet, and why.
  static let tileModeKnownFailures: [String: String] = [:]

  @Test func tileModeCasesPass() throws {
    guard let root = SharedData.root.map({ $0 + "/conformance/maplibre-symbol-tests" }) else {
      print("skipped MapLibre's tile-mode render tests: \(SharedData.skipReason)")
      return
    }
    let suite = try ConformanceSuite(root: root)
    let output = NSTemporaryDirectory() + "tessera-tile-mode-tests-\(getpid())"
    let runner = ConformanceRunner(suite: suite, outputDirectory: output, device: try GLDevice(gpu: .surfaceless))
    let cases = suite.cases.filter(\.tileMode)
    #expect(cases.count >= 4)
    var passed: [String] = []
    for test in cases {
      let outcome = runner.run(test)
      if outcome.passed {
        passed.append(test.id)
        #expect(ConformanceTests.tileModeKnownFailures[test.id] == nil, "now passing: \(test.id)")
      } else {
        #expect(
          ConformanceTests.tileModeKnownFailures[test.id] != nil,
          "\(test.id): difference \(outcome.difference), allowed \(outcome.allowed)")
      }
    }
    print("MapLibre tile-mode render tests: \(passed.count) of \(cases.count) pass; failures' images in \(output)")
  }

  @Test func suitesWithoutRenderTestsAreErrors() {
    #expect(throws: ConformanceError.self) { try ConformanceSuite(root: NSTemporaryDirectory() + "no-such-suite") }
  }
}
