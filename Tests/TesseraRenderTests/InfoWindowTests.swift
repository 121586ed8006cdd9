import Foundation
import TesseraGeo
import TesseraImage
import TesseraTestSupport
import TesseraText
import Testing

@testable import Tessera

/// Info windows of selected markers, attribution and the scale bar: the pictures laid over
/// the frame after it is read back.
@Suite struct InfoWindowTests {
  static let position = Coordinate(latitude: 40, longitude: -74)

  static func selectedMap(_ camera: Camera) throws -> (Map, Marker) {
    let map = try markerMap(camera, width: 320, height: 300)
    let marker = Marker(position: position, title: "Harbour Museum", snippet: "Open daily, 9 to 5")
    map.add(marker)
    map.selectedMarker = marker
    map.accessibilityElementsHidden = false
    return (map, marker)
  }

  @Test func theInfoWindowsTailTipsOnTheMarkersInfoAnchorUnderTiltAndRotation() throws {
    for (bearing, tilt) in [(0.0, 0.0), (30.0, 45.0), (200.0, 60.0)] {
      let camera = try Camera(
        latitude: 40, longitude: -74, zoom: 16, bearing: bearing, viewingAngle: tilt)
      let (map, _) = try InfoWindowTests.selectedMap(camera)
      let snapshot = try map.snapshot()
      let window = try #require(snapshot.accessibilityElements.first { $0.isInfoWindow })
      #expect(window.label == "Harbour Museum, Open daily, 9 to 5")
      // The default pin is 43 points tall, anchored at its bottom centre: the info-window
      // anchor (0.5, 0) is 43 points above the marker's position on the screen.
      let ground = try #require(map.projection.point(for: InfoWindowTests.position))
      let tipX = window.frame.x + window.frame.width / 2
      let tipY = window.frame.y + window.frame.height - InfoWindowPainter.margin
      #expect(abs(tipX - ground.x) < 1.01, "bearing \(bearing)")
      #expect(abs(tipY - (ground.y - 43)) < 1.01, "bearing \(bearing)")
      // The bubble is white where the text is not.
      let x = Int((window.frame.x + InfoWindowPainter.margin + 4).rounded())
      let y = Int((window.frame.y + InfoWindowPainter.margin + 3).rounded())
      try #require(x >= 0 && y >= 0 && x < snapshot.image.width && y < snapshot.image.height, "bubble in view")
      #expect(snapshot.image.pixel(x: x, y: y) == (255, 255, 255, 255))
    }
  }

  @Test func theInfoWindowDrawsAboveOtherMarkersAndGoesWithTheSelection() throws {
    let camera = try Camera(latitude: 40.0003, longitude: -74, zoom: 16)
    let (map, marker) = try InfoWindowTests.selectedMap(camera)
    // A red square where the bubble will be, on top of the selected marker by zIndex.
    let ground = try #require(map.projection.point(for: InfoWindowTests.position))
    let coveredPoint = ScreenPoint(x: ground.x, y: ground.y - 43 - 30)
    let square = Marker(
      position: try #require(map.projection.coordinate(for: coveredPoint)), icon: squareIcon(8, color: (255, 0, 0)))
    square.groundAnchor = MarkerAnchor(x: 0.5, y: 0.5)
    square.zIndex = 100
    map.add(square)
    let open = try map.snapshot().image
    #expect(open.pixel(x: Int(coveredPoint.x), y: Int(coveredPoint.y)) == (255, 255, 255, 255))
    map.selectedMarker = nil
    let closed = try map.snapshot()
    #expect(closed.image.pixel(x: Int(coveredPoint.x), y: Int(coveredPoint.y)) == (255, 0, 0, 255))
    #expect(!closed.accessibilityElements.contains { $0.isInfoWindow })
    // A selected marker with neither title nor snippet shows no window.
    marker.title = nil
    marker.snippet = nil
    map.selectedMarker = marker
    #expect(try map.snapshot().image == closed.image)
  }

  @Test func aCustomInfoWindowPictureSitsOnTheAnchor() throws {
    let camera = try Camera(latitude: 40, longitude: -74, zoom: 16)
    let (map, marker) = try InfoWindowTests.selectedMap(camera)
    marker.infoWindowIcon = squareIcon(12, color: (0, 0, 255))
    let image = try map.snapshot().image
    let ground = try #require(map.projection.point(for: InfoWindowTests.position))
    // 12 × 12 blue, its bottom centre 43 points above the position.
    #expect(image.pixel(x: Int(ground.x), y: Int(ground.y - 43 - 6)) == (0, 0, 255, 255))
    #expect(image.pixel(x: Int(ground.x), y: Int(ground.y - 43 - 14)) != (0, 0, 255, 255))
  }

  @Test func rightToLeftTextIsAlignedRight() throws {
    let glyphs = GlyphStore(loader: nil, fonts: .system)
    func inkColumns(title: String) throws -> (first: Int, last: Int, width: Int) {
      let picture = try #require(
        InfoWindowPainter.picture(title: title, snippet: "A snippet long enough to be wider", scale: 1, glyphs: glyphs))
      let image = picture.image
      // The title's row band: between the top padding and the snippet.
      let top = Int(InfoWindowPainter.margin + InfoWindowPainter.paddingY)
      var columns: [Int] = []
      for y in top..<(top + 14) {
        for x in 0..<image.width where image.pixel(x: x, y: y).r < 128 && image.pixel(x: x, y: y).a == 255 {
          columns.append(x)
        }
      }
      return (try #require(columns.min()), try #require(columns.max()), image.width)
    }
    let english = try inkColumns(title: "Cafe")
    let persian = try inkColumns(title: "کافه")
    let left = Int(InfoWindowPainter.margin + InfoWindowPainter.paddingX)
    #expect(abs(english.first - left) <= 2)
    #expect(abs(persian.last - (persian.width - 1 - left)) <= 2)
    #expect(TextRasterizer.isRightToLeft("۱۲ کافه") && !TextRasterizer.isRightToLeft("12 Cafe کافه"))
  }

  @Test func scenesAndMarkersSelectAndRefuseBadFields() throws {
    let text = #"""
      {"markers": [{"position": [40, -74], "title": "A"}, {"position": [40.001, -74], "title": "B", "selected": true}],
       "attribution": "off", "scaleBar": true}
      """#
    let scene = try Scene.parse(Array(text.utf8), path: "s.json")
    #expect(scene.options.attribution == .off && scene.options.showsScaleBar)
    let map = try Map(scene: scene, gpu: .surfaceless)
    #expect(map.selectedMarker?.title == "B")
    let byIndex = try Scene.parse(
      Array(#"{"markers": [{"position": [40, -74], "title": "A"}], "selectedMarker": 0}"#.utf8), path: "s.json")
    #expect(try Map(scene: byIndex, gpu: .surfaceless).selectedMarker?.title == "A")
    let outOfRange = try Scene.parse(
      Array(#"{"markers": [{"position": [40, -74]}], "selectedMarker": 3}"#.utf8), path: "s.json")
    #expect(throws: SceneError.self) { _ = try Map(scene: outOfRange, gpu: .surfaceless) }
    #expect(throws: SceneError.self) { _ = try Scene.parse(Array(#"{"attribution": 5}"#.utf8), path: "s.json") }
  }
}

@Suite struct OrnamentTests {
  @Test func htmlAttributionIsReducedToText() {
    #expect(
      MapOrnaments.plainText(
        #"<a href="https://openmaptiles.org/">&copy; OpenMapTiles</a> <a href="https://www.openstreetmap.org/copyright">&copy; OpenStreetMap contributors</a>"#
      )
        == "© OpenMapTiles © OpenStreetMap contributors")
    #expect(MapOrnaments.plainText("A &amp; B\n  <b>C</b>") == "A & B C")
  }

  @Test func theDemoCityCreditsNothingAndTextAndOffAreHonoured() throws {
    let map = try Map(options: try StyleRenderingTests.demoOptions(width: 96, height: 64), gpu: .surfaceless)
    #expect(map.attributionText == nil)
    let plain = try map.snapshot().image
    map.attribution = .text("© Somebody")
    #expect(map.attributionText == "© Somebody")
    let credited = try map.snapshot().image
    #expect(credited != plain)
    map.attribution = .off
    #expect(try map.snapshot().image == plain)
  }

  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func monacoCreditsOpenMapTilesAndOpenStreetMap() throws {
    var options = MapOptions(width: 96, height: 64, camera: try Camera(latitude: 43.7384, longitude: 7.4246, zoom: 14))
    options.data = MapData(tiles: SharedData.path("data/vector/monaco-openmaptiles.mbtiles"))
    let map = try Map(options: options, gpu: .surfaceless)
    #expect(map.attributionText == "© OpenMapTiles © OpenStreetMap contributors")
  }

  @Test func paddingLiftsTheAttribution() throws {
    var options = try StyleRenderingTests.demoOptions(width: 160, height: 100)
    options.mapType = .none
    options.backgroundColor = .black
    options.attribution = .text("© Somebody")
    func inkRows(_ options: MapOptions) throws -> ClosedRange<Int> {
      let image = try Map(options: options, gpu: .surfaceless).snapshot().image
      let rows = (0..<image.height).filter { y in (0..<image.width).contains { image.pixel(x: $0, y: y).r > 0 } }
      return try #require(rows.min())...(try #require(rows.max()))
    }
    let flush = try inkRows(options)
    #expect(flush.upperBound >= 96)
    options.padding = EdgeInsets(top: 0, left: 0, bottom: 30, right: 0)
    let lifted = try inkRows(options)
    #expect(lifted.upperBound == flush.upperBound - 30 && lifted.count == flush.count)
  }

  @Test func scaleBarLengthsAreRound() {
    #expect(MapOrnaments.roundLength(below: 137) == 100)
    #expect(MapOrnaments.roundLength(below: 0.7) == 0.5)
    #expect(MapOrnaments.roundLength(below: 2500) == 2000)
    #expect(MapOrnaments.roundLength(below: 0) == 0)
    let glyphs = GlyphStore(loader: nil, fonts: .system)
    #expect(MapOrnaments.scaleBar(metersPerPoint: .nan, scale: 1, glyphs: glyphs) == nil)
    let bar = MapOrnaments.scaleBar(metersPerPoint: 1.5, scale: 2, glyphs: glyphs)
    // 100 points of 1.5 m: a 100 m tick at 66.7 points, 200 ft (61 m) at 40.6 points.
    #expect(bar.map { $0.width >= 2 * 67 } == true)
  }
}

@Suite struct InfoWindowLimitTests {
  @Test func hugeTextsMakeABoundedWindow() throws {
    let glyphs = GlyphStore(loader: nil, fonts: .system)
    let picture = try #require(
      InfoWindowPainter.picture(
        title: String(repeating: "Title ", count: 10_000), snippet: String(repeating: "word ", count: 100_000),
        scale: 2, glyphs: glyphs))
    #expect(picture.image.width < 600 && picture.image.height < 2000)
    #expect(InfoWindowPainter.picture(title: " \n", snippet: "", scale: 1, glyphs: glyphs) == nil)
  }
}

/// Info-window text that would not fit: lines never wider than the bubble, a limited number
/// of them with an ellipsis at the logical end, a bubble kept inside the image.
@Suite struct InfoWindowOverflowTests {
  static let glyphs = GlyphStore(loader: nil, fonts: .system)

  static func width(_ line: String, font: String) -> Double {
    let shaping = glyphs.shape(
      StyledText(sections: [TextSection(text: line)]), fontStack: [font],
      options: ShapingOptions(anchor: .topLeft, justify: .left))
    return shaping.right - shaping.left
  }

  @Test func wordsWiderThanTheBubbleBreakInsideAndEveryLineFits() {
    let limit = InfoWindowPainter.maximumTextWidth / InfoWindowPainter.titleSize * TextLayout.oneEm
    let wrapper = InfoWindowText(
      font: "Noto Sans Bold", maximumWidth: limit, maximumLines: 4, glyphs: InfoWindowOverflowTests.glyphs)
    let word = "Donaudampfschifffahrtsgesellschaftskapitänswitwe"
    #expect(InfoWindowOverflowTests.width(word, font: "Noto Sans Bold") > limit, "the word is wider than the bubble")
    let lines = wrapper.wrapped("A \(word) sailed").split(separator: "\n").map(String.init)
    #expect(lines.count >= 3)
    for line in lines { #expect(InfoWindowOverflowTests.width(line, font: "Noto Sans Bold") <= limit, "\(line)") }
    // Nothing is lost when it fits in four lines: the characters read the same without breaks.
    #expect(lines.joined().replacingOccurrences(of: " ", with: "") == "A\(word)sailed")
  }

  @Test func longTextsEndInAnEllipsisAtTheirLogicalEnd() {
    let limit = InfoWindowPainter.maximumTextWidth / InfoWindowPainter.titleSize * TextLayout.oneEm
    let wrapper = InfoWindowText(
      font: "Noto Sans Bold", maximumWidth: limit, maximumLines: 2, glyphs: InfoWindowOverflowTests.glyphs)
    for text in [
      String(repeating: "word ", count: 40), String(repeating: "كلمة ", count: 40),
      String(repeating: "x", count: 200),
    ] {
      let lines = wrapper.wrapped(text).split(separator: "\n").map(String.init)
      #expect(lines.count == 2)
      // Logical order: the ellipsis is the last character (drawn at the left for Arabic).
      #expect(lines.last?.hasSuffix(InfoWindowText.ellipsis) == true)
      for line in lines { #expect(InfoWindowOverflowTests.width(line, font: "Noto Sans Bold") <= limit) }
      #expect(text.hasPrefix(lines[0]))
    }
    #expect(wrapper.wrapped("Short") == "Short")
  }

  @Test func aBubblePastTheImagesEdgeMovesBackOverItsTail() throws {
    for (longitude, side) in [(-74.0024, "left"), (-73.9976, "right")] {
      let camera = try Camera(latitude: 40.0006, longitude: -74, zoom: 16)
      let map = try markerMap(camera, width: 320, height: 300)
      let marker = Marker(
        position: Coordinate(latitude: 40, longitude: longitude), title: "A title long enough to be wide",
        snippet: "and a snippet as long as it is")
      map.add(marker)
      map.selectedMarker = marker
      map.accessibilityElementsHidden = false
      let snapshot = try map.snapshot()
      let window = try #require(snapshot.accessibilityElements.first { $0.isInfoWindow })
      let margin = InfoWindowPainter.margin
      #expect(window.frame.x + margin >= -0.5, "\(side)")
      #expect(window.frame.x + window.frame.width - margin <= 320.5, "\(side)")
      #expect(!snapshot.warnings.contains { $0.contains("info window") }, "\(snapshot.warnings)")
      // The tail still points at the pin's top: a white pixel just above the tip, over the pin.
      let ground = try #require(map.projection.point(for: marker.position))
      let tip = (x: Int(ground.x.rounded()), y: Int((ground.y - 43 - 4).rounded()))
      #expect(snapshot.image.pixel(x: tip.x, y: tip.y) == (255, 255, 255, 255), "\(side)")
    }
  }

  @Test func aBubbleCutAtTheTopIsAWarning() throws {
    let camera = try Camera(latitude: 39.9985, longitude: -74, zoom: 16)
    let map = try markerMap(camera, width: 320, height: 300)
    let marker = Marker(position: Coordinate(latitude: 40, longitude: -74), title: "Near the top")
    map.add(marker)
    map.selectedMarker = marker
    let warnings = try map.snapshot().warnings
    #expect(warnings.contains { $0.contains("info window is cut at the image's top edge") }, "\(warnings)")
  }
}
