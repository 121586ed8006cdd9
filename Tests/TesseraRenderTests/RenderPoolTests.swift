import Foundation
import Synchronization
import Tessera
import TesseraJSON
import TesseraStyle
import TesseraTestSupport
import Testing

/// A render pool's images are the bytes a map made on its own draws, whichever thread renders a
/// job and whatever that thread rendered before.
@Suite struct RenderPoolTests {
  static let cases = PackagePaths.path("Tests/TesseraRenderTests/Cases")

  /// Scenes of several kinds: the demo city from several cameras (which threads reuse maps
  /// for), a style file with its own sources, markers (always a new map), no map type.
  static func scenes() throws -> [Scene] {
    var scenes: [Scene] = []
    for (bearing, tilt) in [(0.0, 0.0), (40, 50), (200, 30)] {
      let camera = try Camera(latitude: 40, longitude: -74, zoom: 16.2, bearing: bearing, viewingAngle: tilt)
      scenes.append(Scene(options: MapOptions(width: 160, height: 120, camera: camera)))
    }
    scenes.append(try Scene.load(path: cases + "/style-fill-antialias/case.json"))
    scenes.append(try Scene.load(path: cases + "/markers-default-pins/case.json"))
    let camera = try Camera(latitude: 10, longitude: 20, zoom: 3)
    scenes.append(
      Scene(options: MapOptions(width: 64, height: 48, camera: camera, showsTileGrid: true, mapType: .none)))
    return scenes
  }

  @Test func threadsTimesJobsGiveTheBytesOfSingleRenders() throws {
    let scenes = try RenderPoolTests.scenes()
    let device = try GLDevice(gpu: .surfaceless)
    let singles = try scenes.map { try Map(scene: $0, device: device).snapshot().image }
    let pool = try RenderPool(threads: 3, gpu: .surfaceless)
    #expect(pool.threadCount == 3 && pool.startUpFailures.isEmpty)
    // 24 jobs, interleaved so each thread meets several kinds in turn.
    let jobs = (0..<24).map { $0 % scenes.count }
    let results = Mutex<[Int: Result<RGBAImage, any Error>]>([:])
    let threads = Mutex(Set<ObjectIdentifier>())
    let done = DispatchGroup()
    for (index, scene) in jobs.enumerated() {
      done.enter()
      pool.submit(scenes[scene]) { result in
        results.withLock { $0[index] = result.map(\.image) }
        threads.withLock { _ = $0.insert(ObjectIdentifier(Thread.current)) }
        done.leave()
      }
    }
    #expect(done.wait(timeout: .now() + 300) == .success)
    pool.shutdown()
    let images = results.withLock { $0 }
    #expect(images.count == jobs.count)
    for (index, scene) in jobs.enumerated() {
      let image = try #require(try images[index]?.get())
      #expect(image == singles[scene], "job \(index) (scene \(scene)) differs from its single render")
    }
    #expect(threads.withLock { $0.count } > 1, "jobs ran on one thread only")
  }

  @Test func aKeptMapDrawsEachJobsMarkersAndOverlaysAsANewMapWould() throws {
    // One thread keeps its map between these jobs (same size and map type): each job's markers
    // and overlays replace the last one's, with the bytes of a map made for that job alone.
    func scene(_ color: String, path: Bool, markers: Int) throws -> Scene {
      var root: JSONObject = [
        "size": ["width": 160, "height": 120],
        "camera": ["latitude": 40, "longitude": -74, "zoom": 16, "viewingAngle": 40],
        "markers": .array(
          (0..<markers).map { index in
            ["position": [.number(40 + Double(index) * 0.0004), -74], "color": .string(color)]
          }),
      ]
      if path {
        root["polylines"] = [["path": [[39.999, -74.002], [40.001, -73.998]], "color": "#ff0000", "width": 6]]
      }
      return try Scene.parse(.object(root), path: "/tmp/pool-job.json")
    }
    let jobs = [
      try scene("#00ff00", path: true, markers: 3), try scene("#0000ff", path: false, markers: 1),
      try scene("#00ff00", path: true, markers: 3), try scene("#ff00ff", path: true, markers: 5),
    ]
    let device = try GLDevice(gpu: .surfaceless)
    let alone = try jobs.map { try Map(scene: $0, device: device).snapshot().image }
    let pool = try RenderPool(threads: 1, gpu: .surfaceless)
    defer { pool.shutdown() }
    for (index, job) in jobs.enumerated() {
      #expect(try pool.render(job).image == alone[index], "job \(index)")
    }
  }

  @Test func discardingKeptMapsMakesTheNextJobReadItsStyleAgain() throws {
    let folder = NSTemporaryDirectory() + "tessera-pool-style-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    func write(_ colour: String) throws {
      let style = """
        {"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", \
        "paint": {"background-color": "\(colour)"}}]}
        """
      try Data(style.utf8).write(to: URL(fileURLWithPath: folder + "/style.json"))
    }
    var scene = Scene(options: MapOptions(width: 16, height: 16))
    scene.stylePath = folder + "/style.json"
    let pool = try RenderPool(threads: 1, gpu: .surfaceless)
    defer { pool.shutdown() }
    func centre() throws -> [UInt8] {
      let pixel = try pool.render(scene).image.pixel(x: 8, y: 8)
      return [pixel.r, pixel.g, pixel.b]
    }
    try write("#ff0000")
    #expect(try centre() == [255, 0, 0])
    // The one thread keeps its map for the same scene: an edit alone is not read.
    try write("#0000ff")
    #expect(try centre() == [255, 0, 0])
    pool.discardKeptContent()
    #expect(try centre() == [0, 0, 255])
  }

  @Test func failuresAreReportedAndTheOtherJobsRender() throws {
    let pool = try RenderPool(threads: 2, gpu: .surfaceless)
    var broken = Scene(options: MapOptions(width: 32, height: 32))
    broken.stylePath = "/nonexistent/style.json"
    #expect(throws: StyleError.self) { try pool.render(broken) }
    let scene = Scene(options: MapOptions(width: 32, height: 32, mapType: .none))
    #expect(try pool.render(scene).image.width == 32)
    pool.shutdown()
    #expect(throws: RenderPoolError.self) { try pool.render(scene) }
  }

  @Test func aPoolWithoutAnyContextIsAnError() {
    #expect(throws: (any Error).self) { try RenderPool(threads: 2, gpu: .device(99)) }
  }
}
