import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraData

/// The zip reader (IMDF venues as `.zip`): the test venue's archive read whole, and damaged
/// archives (bytes flipped, cut short, sizes and offsets made huge) refused or read without
/// ever reaching outside the bytes or inflating past the bound.
@Suite struct ZipArchiveTests {
  static let archive = PackagePaths.path("Tests/TesseraRenderTests/Cases/indoor-venue.zip")

  @Test func theVenueArchiveIsRead() throws {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.archive)))
    let zip = try ZipArchive(bytes, source: "venue.zip")
    #expect(zip.names.contains("bazaar/unit.geojson") && zip.names.count == 12, "\(zip.names)")
    let unit = try #require(try zip.file(named: "unit.geojson", source: "venue.zip"))
    let folder = try Data(
      contentsOf: URL(fileURLWithPath: PackagePaths.path("Tests/TesseraRenderTests/Cases/indoor-venue/unit.geojson")))
    #expect(unit == Array(folder))
    #expect(try zip.file(named: "absent.geojson", source: "venue.zip") == nil)
    // A bound below the file's size is refused, not exceeded.
    #expect(throws: ZipError.self) { try zip.file(named: "unit.geojson", source: "venue.zip", limit: 100) }
  }

  @Test func damagedArchivesAreRefusedOrReadSafely() throws {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.archive)))
    var random = SeededRandom(seed: 39)
    var refused = 0
    for round in 0..<400 {
      var damaged = bytes
      switch round % 4 {
      case 0:
        for _ in 0..<Int.random(in: 1...8, using: &random) {
          damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
      case 1:
        damaged = Array(damaged.prefix(Int.random(in: 0..<damaged.count, using: &random)))
      case 2:
        // A size or offset field of the central directory set to all ones.
        let at = Int.random(in: max(0, damaged.count - 900)..<(damaged.count - 4), using: &random)
        for index in at..<(at + 4) { damaged[index] = 0xFF }
      default:
        damaged = Array(damaged.suffix(Int.random(in: 0..<damaged.count, using: &random)))
      }
      do {
        let zip = try ZipArchive(damaged, source: "damaged.zip")
        for name in zip.names {
          _ = try? zip.file(named: String(name.split(separator: "/").last ?? ""), source: "damaged.zip", limit: 1 << 20)
        }
      } catch {
        refused += 1
      }
    }
    #expect(refused > 50, "\(refused) of 400 refused")
  }
}
