import CityMaps
import TesseraTesting
import Testing
import XCTest

/// Swift Testing: the reference is `__Snapshots__/CityMapsTests/overview.png`.
@Test func overview() throws {
  assertMapSnapshot(of: try CityMaps.overview(), named: "overview")
}

/// XCTest works the same way: `__Snapshots__/CityMapsTests/night-streets.png`.
final class NightStreetsTests: XCTestCase {
  func testNightStreets() throws {
    assertMapSnapshot(of: try CityMaps.nightStreets(), named: "night-streets")
  }
}
