import Dispatch
import Foundation
import Synchronization
import TesseraTestSupport
import Testing

@testable import Tessera

/// Renders stop when asked (a service cancels the render of a request it answered 504), content
/// beyond a map's limits is refused before it is made, and memory a large render freed goes back
/// to the system.
@Suite(.serialized) struct RenderBudgetTests {
  static func scene(overlays: Int, pointsEach: Int, limits: ContentLimits = ContentLimits()) throws -> Scene {
    var polylines: [JSONValue] = []
    for index in 0..<overlays {
      let path: [JSONValue] = (0..<pointsEach).map { step in
        [.number(43 + Double(step % 90) * 0.01), .number(7 + Double(index) * 0.001 + Double(step) * 0.0001)]
      }
      polylines.append(["path": .array(path), "width": 2, "geodesic": true])
    }
    var scene = try Scene.parse(
      [
        "size": ["width": 64, "height": 48], "camera": ["latitude": 43.3, "longitude": 7.1, "zoom": 6],
        "mapType": "none", "polylines": .array(polylines),
      ], path: "budget.json")
    scene.options.contentLimits = limits
    return scene
  }

  @Test func aCancelledRenderStopsWithTheCancellationError() throws {
    let cancellation = RenderCancellation()
    cancellation.cancel()
    let map = try Map(scene: try Self.scene(overlays: 3, pointsEach: 10), gpu: .surfaceless)
    map.cancellation = cancellation
    #expect(throws: RenderCancelledError.self) { try map.snapshot() }
    // The same map draws once the cancellation is gone.
    map.cancellation = nil
    #expect(try map.snapshot().image.width == 64)
  }

  /// A job of 800,000 geodesic points: several seconds of reading, building and drawing.
  static func heavyScene() throws -> Scene {
    try scene(overlays: 400, pointsEach: 2_000, limits: ContentLimits(overlayPoints: 50_000_000))
  }

  /// Cancelled early, about a fifth and about two fifths of the way into the heavy job, which
  /// takes 5–6 s uncancelled in a debug build on two cores and 11 s with the rest of the suite
  /// beside it: the last cancellation leaves it more than half its time to spare.
  @Test(arguments: [0.3, 1.2, 2.4])
  func aPoolSkipsOrStopsCancelledJobsAndKeepsWorking(cancelAfter seconds: Double) throws {
    let pool = try RenderPool(threads: 1, gpu: .surfaceless)
    defer { pool.shutdown() }
    let cancelled = RenderCancellation()
    cancelled.cancel()
    let outcome = Mutex<Result<Snapshot, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    pool.submit(try Self.scene(overlays: 1, pointsEach: 10), cancellation: cancelled) { result in
      outcome.withLock { $0 = result }
      done.signal()
    }
    done.wait()
    #expect(throws: RenderCancelledError.self) { try outcome.withLock { $0 }!.get() }
    // A heavy job cancelled while it runs ends soon after, and the next job is drawn.
    let heavy = try Self.heavyScene()
    let running = RenderCancellation()
    let start = Date()
    let ended = Mutex<Date?>(nil)
    pool.submit(heavy, cancellation: running) { result in
      ended.withLock { $0 = Date() }
      outcome.withLock { $0 = result }
      done.signal()
    }
    Thread.sleep(forTimeInterval: seconds)
    let cancelledAt = Date()
    running.cancel()
    done.wait()
    let stopped = ended.withLock { $0 }!
    print(
      "a heavy render cancelled after \(cancelledAt.timeIntervalSince(start)) s ended \(stopped.timeIntervalSince(cancelledAt)) s later"
    )
    #expect(throws: RenderCancelledError.self) { try outcome.withLock { $0 }!.get() }
    #expect(stopped.timeIntervalSince(cancelledAt) < 2)
    #expect(try pool.render(try Self.scene(overlays: 1, pointsEach: 10)).image.width == 64)
  }

  @Test func contentBeyondTheLimitsIsRefusedBeforeItIsMade() throws {
    let limits = ContentLimits(markers: 2, overlays: 3, overlayPoints: 1_000)
    for (scene, what) in [
      (try Self.scene(overlays: 4, pointsEach: 2, limits: limits), "overlays"),
      (try Self.scene(overlays: 1, pointsEach: 2_000, limits: limits), "overlay points"),
    ] {
      do {
        _ = try Map(scene: scene, gpu: .surfaceless).snapshot()
        Issue.record("\(what) beyond the limit were drawn")
      } catch let error as ContentLimitError {
        #expect(error.description.contains(what), "\(error)")
      }
    }
    // A geodesic line is counted as it will be drawn: two points a hemisphere apart are hundreds.
    let line = Polyline(path: [Coordinate(latitude: -60, longitude: 0), Coordinate(latitude: 60, longitude: 170)])
    line.geodesic = true
    #expect(line.pointCount > 500)
    let map = try Map(options: MapOptions(width: 32, height: 32, mapType: .none), gpu: .surfaceless)
    map.contentLimits = ContentLimits(markers: 1)
    map.add([
      Marker(position: Coordinate(latitude: 0, longitude: 0)), Marker(position: Coordinate(latitude: 1, longitude: 1)),
    ])
    #expect(throws: ContentLimitError.self) { try map.snapshot() }
  }

  @Test func memoryALargeJobFreedIsReturned() throws {
    guard let start = MemoryReturn.residentBytes() else { return }
    MemoryReturn.afterJob()
    // Many small blocks (from the allocator's arenas, not separate mappings), then freed.
    var blocks: [[UInt8]] = []
    for index in 0..<300_000 { blocks.append([UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 2_000)) }
    let grown = MemoryReturn.residentBytes() ?? 0
    blocks = []
    MemoryReturn.afterJob()
    let after = MemoryReturn.residentBytes() ?? 0
    print("resident: \(start >> 20) MB, \(grown >> 20) MB with 600 MB allocated, \(after >> 20) MB after the trim")
    // Other tests run in this process at the same time and allocate or free too, so the
    // resident size before the blocks says little (tests finishing beside this one can free
    // more than the blocks take); what the blocks held while alive must go back once they are
    // freed and the job is over, within the few milliseconds between the two measurements.
    #expect(after < grown - (250 << 20))
  }
}
