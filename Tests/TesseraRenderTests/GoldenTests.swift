import Foundation
import Tessera
import TesseraJSON
import TesseraTestSupport
import Testing

/// Renders every case in `Tests/TesseraRenderTests/Cases` on llvmpipe (surfaceless platform)
/// and compares it with its golden. A case is a scene file (`case.json`) plus an optional
/// `test` object with `allowed`, `threshold` and `sharedData` (true: the case reads
/// ../shared/data and is skipped, with the reason printed, when it is absent).
@Suite struct GoldenTests {
  static let casesDirectory = PackagePaths.path("Tests/TesseraRenderTests/Cases")

  static let caseNames: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: casesDirectory)) ?? []
    return names.filter { FileManager.default.fileExists(atPath: "\(casesDirectory)/\($0)/case.json") }.sorted()
  }()

  @Test(arguments: caseNames)
  func rendersLikeTheGolden(_ name: String) throws {
    let directory = "\(GoldenTests.casesDirectory)/\(name)"
    let path = "\(directory)/case.json"
    var root = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    let test = JSONCursor(root: root, source: path)["test"]
    let allowed = try test["allowed"].number(default: GoldenHarness.defaultAllowed)
    let threshold = try test["threshold"].number(default: GoldenHarness.defaultThreshold)
    if try test["sharedData"].bool(default: false), !SharedData.isAvailable {
      print("skipped golden \(name): \(SharedData.skipReason)")
      return
    }
    if case .object(var object) = root {
      object["test"] = nil
      root = .object(object)
    }
    let scene = try Scene.parse(Array(root.serialized().utf8), path: path)
    #expect(scene.warnings.isEmpty, "\(scene.warnings)")
    let map = try Map(scene: scene, gpu: .surfaceless)
    let snapshot = try map.snapshot()
    let outcome = GoldenHarness.check(snapshot.image, caseDirectory: directory, allowed: allowed, threshold: threshold)
    #expect(outcome.passed, "\(outcome.message)")
  }

  @Test func thereAreCases() {
    #expect(GoldenTests.caseNames.count >= 5)
  }
}
