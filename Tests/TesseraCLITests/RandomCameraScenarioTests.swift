import Foundation
import Tessera
import TesseraTestSupport
import Testing

/// `Tools/bench/random_cameras.py` writes scenarios Tessera accepts, within Google's tilt cap,
/// the same for the same seed.
@Suite struct RandomCameraScenarioTests {
  static func generate(seed: Int, into folder: String) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      PackagePaths.path("Tools/bench/random_cameras.py"), "--shared", PackagePaths.path("../shared"), "--out", folder,
      "--count", "12", "--seed", String(seed),
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return text.split(separator: "\n").map(String.init)
  }

  @Test func scenariosParseAndStayWithinTheTiltCap() throws {
    let base = NSTemporaryDirectory() + "tessera-random-cameras-\(getpid())"
    let paths = try RandomCameraScenarioTests.generate(seed: 21, into: base + "/a")
    #expect(paths.count == 12)
    var zooms: [Double] = []
    for path in paths {
      let scene = try Scene.load(path: path)
      let camera = scene.options.camera
      zooms.append(camera.zoom)
      #expect((13...18).contains(camera.zoom), "\(path)")
      #expect(camera.viewingAngle <= 30 + 35 * min(max(camera.zoom - 10, 0), 6) / 6 + 1e-9, "\(path)")
      #expect(scene.stylePath != nil, "\(path)")
    }
    #expect(Set(zooms).count > 6)
    // The same seed writes the same files.
    let again = try RandomCameraScenarioTests.generate(seed: 21, into: base + "/b")
    for (first, second) in zip(paths, again) {
      #expect(FileManager.default.contents(atPath: first) == FileManager.default.contents(atPath: second))
    }
  }
}
