import Foundation
import Testing

@testable import TesseraData

/// The log of what a local scene read: each path once, in the order first resolved, appended
/// only, so readers take the new entries since their last look.
@Suite struct ResourceLogTests {
  @Test func keepsEachPathOnceAndHandsOutTheNewOnes() throws {
    let log = ResourceLog()
    let access = ResourceAccess.local(directory: "/data/city", log: log)
    for name in ["a.png", "b.json", "a.png", "./a.png", "../city/b.json", "c.pbf"] {
      _ = try access.path(name, field: "field")
    }
    #expect(log.paths == ["/data/city/a.png", "/data/city/b.json", "/data/city/c.pbf"])
    #expect(Array(log.paths(from: 1)) == ["/data/city/b.json", "/data/city/c.pbf"])
    #expect(log.paths(from: 3).isEmpty)
    #expect(log.paths(from: 10).isEmpty)
    _ = try access.sourceReference("mbtiles://tiles.mbtiles", field: "source")
    #expect(Array(log.paths(from: 3)) == ["/data/city/tiles.mbtiles"])
  }

  @Test func holdsAtMostItsCapacity() throws {
    let log = ResourceLog()
    let access = ResourceAccess.local(directory: "/data", log: log)
    for index in 0..<(ResourceLog.capacity + 5) { _ = try access.path("f\(index)", field: "field") }
    #expect(log.paths.count == ResourceLog.capacity)
  }
}
