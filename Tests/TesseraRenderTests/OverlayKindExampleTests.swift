import Foundation
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraTestSupport
import Testing

@testable import Tessera

/// The overlay kind of docs/ARCHITECTURE.md ("How to add an overlay kind"), compiled as
/// written: it conforms to every requirement, and a map reads, draws, hit-tests and fits it
/// through the protocol alone.
@Suite struct OverlayKindExampleTests {
  /// The example's overlay class.
  final class Marquee: MapOverlay {
    var position: Coordinate
    var color = Color(r: 255, g: 0, b: 0)

    init(position: Coordinate) {
      self.position = position
      super.init(kind: MarqueeKind.self)
    }
  }

  // ARCHITECTURE example begins
  package enum MarqueeKind: OverlayKind {
    package static let sceneField = "marquees"
    package static let elementKind = "marquee"
    package static let entryFields: Set<String> = ["position", "color", "zIndex"]
    package static let nestedFields: [(field: String, fields: Set<String>)] = []
    package static let commandLine: OverlayFlagSyntax? = OverlayFlagSyntax(
      option: "marquee", first: ("position", .numbers(count: 2)), keys: [.init("color", "color", .text)])

    package static func readEntry(_ entry: JSONCursor, reader: OverlayReader) throws -> Marquee {
      let marquee = Marquee(position: try OverlayReader.coordinates(entry["position"], single: true)[0])
      if let color = try OverlayReader.color(entry["color"]) { marquee.color = color }
      marquee.zIndex = try OverlayReader.zIndex(entry)
      return marquee
    }
    package static func validate(_ marquee: Marquee, _ check: OverlayCheck) throws(OverlayError) {
      try check.coordinates([[marquee.position]], field: "position")
    }
    package static func pointCount(_ marquee: Marquee) -> Int { 1 }
    package static func coordinates(_ marquee: Marquee) -> [Coordinate] { [marquee.position] }
    package static func hits(_ marquee: Marquee, _ point: ScreenPoint, projection: Projection, tolerance: Double)
      -> Bool
    {
      projection.point(for: marquee.position).map { hypot($0.x - point.x, $0.y - point.y) <= 8 + tolerance } ?? false
    }
    package static func accessibilityFrame(_ marquee: Marquee, projection: Projection) -> ScreenRect? {
      projection.point(for: marquee.position).map { ScreenRect(x: $0.x - 8, y: $0.y - 8, width: 16, height: 16) }
    }
    package static func addLayers(_ marquee: Marquee, to style: inout OverlayStyleBuilder) {
      let part = style.addPoint(marquee.position)
      var layer = OverlayLayer(.circle, source: .features, part: part)
      layer.setCircleRadius(8)
      layer.setCircleColor(marquee.color)
      style.addLayer(layer)
    }
    package static func copy(_ marquee: Marquee) -> Marquee {
      let copy = Marquee(position: marquee.position)
      copy.color = marquee.color
      return copy
    }
  }
  // ARCHITECTURE example ends

  @Test func theExampleKindIsReadDrawnHitAndFitted() throws {
    let entry = JSONCursor(root: ["position": [0.5, -0.5], "color": "#00ff00", "zIndex": 2], source: "test")
    let read = try MarqueeKind.read(entry, reader: OverlayReader(access: .inlineOnly()))
    let marquee = try #require(read.first as? Marquee)
    #expect(marquee.zIndex == 2 && marquee.color == Color(r: 0, g: 255, b: 0))
    let map = try OverlayTests.map(try Camera(latitude: 0, longitude: 0, zoom: 6))
    map.add(marquee)
    let image = try map.snapshot().image
    let point = try #require(map.projection.point(for: marquee.position))
    let pixel = image.pixel(x: Int(clamping: point.x.rounded(.down)), y: Int(clamping: point.y.rounded(.down)))
    #expect(pixel.g > 200 && pixel.r < 40 && pixel.b < 40, "\(pixel)")
    #expect(map.overlay(at: point) === marquee)
    #expect(map.accessibilityFrame(of: marquee)?.width == 16)
    #expect(SceneContent.coordinates(markers: [], overlays: [marquee], myLocation: nil) == [marquee.position])
    // Unchecked coordinates are refused by the kind's own check.
    let far = Marquee(position: Coordinate(latitude: 95, longitude: 0))
    #expect(throws: OverlayError.self) { try OverlayValidation.check(far) }
  }

  @Test func theExampleIsTheOneInTheArchitectureDocument() throws {
    let source = try String(
      contentsOfFile: PackagePaths.path("Tests/TesseraRenderTests/OverlayKindExampleTests.swift"), encoding: .utf8)
    let lines = source.components(separatedBy: "\n")
    let begin = try #require(lines.firstIndex { $0.hasSuffix("// ARCHITECTURE example begins") })
    let end = try #require(lines.firstIndex { $0.hasSuffix("// ARCHITECTURE example ends") })
    let body = lines[(begin + 1)..<end].map { $0.hasPrefix("  ") ? String($0.dropFirst(2)) : $0 }
    let block = (["```swift internal"] + body + ["```"]).joined(separator: "\n")
    let document = try String(contentsOfFile: PackagePaths.path("docs/ARCHITECTURE.md"), encoding: .utf8)
    #expect(document.contains(block), "docs/ARCHITECTURE.md's overlay kind example must read:\n\(block)")
  }
}
