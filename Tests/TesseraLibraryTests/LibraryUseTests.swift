import Foundation
import Synchronization
import Tessera
import Testing

/// The library as a Swift user meets it: no GL device made by hand, maps handed between
/// threads, the render pool awaited from tasks, single tiles asked for one after another.
@Suite struct LibraryUseTests {
  static let camera = try! Camera(latitude: 40.0, longitude: -74.0, zoom: 16.5, bearing: 30, viewingAngle: 45)

  static func options(width: Double = 240, height: Double = 160) -> MapOptions {
    MapOptions(width: width, height: height, camera: camera)
  }

  /// A map made on one thread draws the same bytes on others, one call at a time.
  @Test func aMapCanBeUsedFromAnotherThread() throws {
    let map = try Map(options: Self.options(), gpu: .surfaceless)
    let here = try map.snapshot().image
    let box = UncheckedBox(map)
    let elsewhere = Mutex<Result<[UInt8], any Error>?>(nil)
    let thread = Thread {
      elsewhere.withLock { result in
        result = Result {
          // Twice on the other thread, then back here below.
          _ = try box.value.snapshot()
          return try box.value.snapshot().image.pixels
        }
      }
    }
    thread.start()
    while elsewhere.withLock({ $0 == nil }) { usleep(1000) }
    let pixels = try #require(try elsewhere.withLock { $0 }?.get())
    #expect(pixels == here.pixels)
    #expect(try map.snapshot().image.pixels == here.pixels)
  }

  /// A map used from a task, whose continuation may resume on any thread.
  @Test func aMapCanBeUsedFromTasks() async throws {
    let box = UncheckedBox(try Map(options: Self.options(), gpu: .surfaceless))
    let first = try box.value.snapshot().image
    for _ in 0..<3 {
      await Task.yield()
      let again = try await Task.detached { try box.value.snapshot().image }.value
      #expect(again.pixels == first.pixels)
    }
  }

  /// Awaiting callers get their snapshots from the pool's threads; cancelling a task cancels
  /// its render.
  @Test func thePoolCanBeAwaited() async throws {
    let pool = try RenderPool(threads: 2, gpu: .surfaceless)
    defer { pool.shutdown() }
    let bearings: [Double] = [0, 90, 180, 270]
    let images = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
      for (index, bearing) in bearings.enumerated() {
        let camera = try Camera(target: Self.camera.target, zoom: 16.5, bearing: bearing, viewingAngle: 45)
        let scene = Scene(options: MapOptions(width: 200, height: 150, camera: camera))
        group.addTask { (index, try await pool.snapshot(scene).image.pixels) }
      }
      var images: [Int: [UInt8]] = [:]
      for try await (index, pixels) in group { images[index] = pixels }
      return images
    }
    #expect(images.count == 4)
    let camera = try Camera(target: Self.camera.target, zoom: 16.5, bearing: 90, viewingAngle: 45)
    let blocking = try pool.render(Scene(options: MapOptions(width: 200, height: 150, camera: camera)))
    #expect(images[1] == blocking.image.pixels)
    #expect(images[0] != images[2])
    // A cancelled task's render ends with the cancellation error.
    let task = Task {
      try await pool.snapshot(Scene(options: MapOptions(width: 200, height: 150, camera: camera)))
    }
    task.cancel()
    do {
      _ = try await task.value
    } catch {
      #expect(error is RenderCancelledError, "\(error)")
    }
  }

  /// Tiles asked for one by one are the tiles of their metatile, and need no device by hand.
  @Test func singleTilesAreTheirMetatilesTiles() throws {
    let renderer = try TileRenderer(template: Self.options(), gpu: .surfaceless)
    let metatile = Metatile(containing: TileID(z: 15, x: 9647, y: 12320), size: renderer.settings.metatile)
    let whole = try renderer.render(metatile)
    for tile in metatile.tiles {
      #expect(try renderer.render(tile).pixels == whole[tile]?.pixels)
    }
  }
}

/// Hands a non-Sendable value to another thread; the tests use it from one thread at a time.
final class UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
