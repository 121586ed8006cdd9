import Foundation
import Tessera
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraTestSupport
import Testing

/// A white square icon of `size` pixels (opaque), with an optional coloured centre pixel.
func squareIcon(_ size: Int, color: (UInt8, UInt8, UInt8) = (255, 255, 255)) -> MarkerIcon {
  let pixels = (0..<size * size).flatMap { _ -> [UInt8] in [color.0, color.1, color.2, 255] }
  return MarkerIcon(image: RGBAImage(width: size, height: size, pixels: pixels, alpha: .straight))
}

/// A map drawing nothing but markers, on black.
func markerMap(_ camera: Camera, width: Double = 200, height: Double = 150, scale: Double = 1) throws -> Map {
  try Map(
    options: MapOptions(
      width: width, height: height, scale: scale, camera: camera, backgroundColor: .black, mapType: .none),
    gpu: .surfaceless)
}

/// The centre of an image's red (pixels), weighted by how much red exceeds green, so grey sky and
/// fog at steep tilts do not count.
func redCentroid(_ image: RGBAImage) -> (x: Double, y: Double, weight: Double) {
  var sum = (0.0, 0.0, 0.0)
  for y in 0..<image.height {
    for x in 0..<image.width {
      let p = image.pixel(x: x, y: y)
      let w = max(0, Double(p.r) - Double(p.g))
      sum = (sum.0 + w * (Double(x) + 0.5), sum.1 + w * (Double(y) + 0.5), sum.2 + w)
    }
  }
  return (sum.0 / sum.2, sum.1 / sum.2, sum.2)
}

@Suite struct MarkerPlacementTests {
  @Test(
    arguments: [
      (16.0, 0.0, 0.0, 1.0, false), (15.3, 30, 45, 1, false), (17.2, 200, 60, 2, false), (21.7, 80, 65, 1, false),
      (16.0, 0.0, 0.0, 1.0, true), (15.5, 40, 50, 2, true), (21.3, 300, 60, 1, true),
    ] as [(Double, Double, Double, Double, Bool)])
  func anchorLandsOnTheProjection(zoom: Double, bearing: Double, tilt: Double, scale: Double, flat: Bool) throws {
    let camera = try Camera(latitude: 43.7384, longitude: 7.4246, zoom: zoom, bearing: bearing, viewingAngle: tilt)
    let map = try markerMap(camera, scale: scale)
    // Off the view's centre, so the offset from the target is tested at every zoom.
    let position = try #require(map.projection.coordinate(for: ScreenPoint(x: 131.3, y: 92.7)))
    let marker = Marker(position: position)
    marker.icon = MarkerIcon(image: redSquare(Int(9 * scale)), scale: scale)
    marker.groundAnchor = MarkerAnchor(x: 0.5, y: 0.5)
    marker.isFlat = flat
    map.add(marker)
    let image = try map.snapshot().image
    let expected = try #require(map.projection.point(for: position))
    let centre = redCentroid(image)
    // Billboards are put on whole pixels (crisp icons): each axis is off by at most half a pixel.
    let error = max(abs(centre.x - expected.x * scale), abs(centre.y - expected.y * scale))
    #expect(
      error <= 0.5 + 1e-6, "zoom \(zoom) bearing \(bearing) tilt \(tilt) scale \(scale) flat \(flat): \(error) px off")
  }

  func redSquare(_ size: Int) -> RGBAImage {
    RGBAImage(width: size, height: size, pixels: (0..<size * size).flatMap { _ in [255, 0, 0, 255] }, alpha: .straight)
  }

  @Test func anchorsRotationAndZIndexOrder() throws {
    let camera = try Camera(latitude: 0, longitude: 0, zoom: 18)
    let map = try markerMap(camera, width: 100, height: 100)
    let centre = Coordinate(latitude: 0, longitude: 0)
    // Anchor (0, 0): the icon hangs right and down from the point.
    let red = Marker(position: centre, icon: squareIcon(10, color: (255, 0, 0)))
    red.groundAnchor = MarkerAnchor(x: 0, y: 0)
    // Anchor (1, 1), drawn later at the same zIndex: up and left, on top where they overlap.
    let green = Marker(position: centre, icon: squareIcon(10, color: (0, 255, 0)))
    green.groundAnchor = MarkerAnchor(x: 1, y: 1)
    // A blue square centred on the point with a lower zIndex: under both.
    let blue = Marker(position: centre, icon: squareIcon(6, color: (0, 0, 255)))
    blue.groundAnchor = MarkerAnchor(x: 0.5, y: 0.5)
    blue.zIndex = -1
    map.add([red, green, blue])
    var image = try map.snapshot().image
    #expect(image.pixel(x: 55, y: 55) == (255, 0, 0, 255))
    #expect(image.pixel(x: 45, y: 45) == (0, 255, 0, 255))
    #expect(image.pixel(x: 52, y: 48) == (0, 0, 255, 255))
    // Raising blue's zIndex puts it on top.
    blue.zIndex = 5
    image = try map.snapshot().image
    #expect(image.pixel(x: 51, y: 51) == (0, 0, 255, 255) && image.pixel(x: 49, y: 49) == (0, 0, 255, 255))
    // Rotating red 90° clockwise about its top-left anchor swings it to the lower left.
    red.rotation = 90
    blue.zIndex = -1
    image = try map.snapshot().image
    #expect(image.pixel(x: 45, y: 55) == (255, 0, 0, 255))
    #expect(image.pixel(x: 55, y: 55) == (0, 0, 0, 255))
    // Half opacity over black.
    green.opacity = 0.5
    image = try map.snapshot().image
    let half = image.pixel(x: 45, y: 45)
    #expect(half.g >= 126 && half.g <= 129 && half.r == 0)
  }
}

@Suite struct MarkerModelTests {
  @Test func hitTestsFindTheTopmostOpaqueTappableMarker() throws {
    let camera = try Camera(latitude: 0, longitude: 0, zoom: 18)
    let map = try markerMap(camera, width: 100, height: 100)
    let below = Marker(position: Coordinate(latitude: 0, longitude: 0), title: "below")
    let above = Marker(position: Coordinate(latitude: 0, longitude: 0), title: "above")
    above.zIndex = 1
    map.add([above, below])
    _ = try map.snapshot()
    // The pin's head is above its ground anchor (the bottom centre at 50, 50).
    #expect(map.marker(at: ScreenPoint(x: 50, y: 30)) === above)
    above.isTappable = false
    #expect(map.marker(at: ScreenPoint(x: 50, y: 30)) === below)
    // Transparent corners of the pin's box do not hit.
    #expect(map.marker(at: ScreenPoint(x: 38, y: 48)) == nil)
    #expect(map.marker(at: ScreenPoint(x: 90, y: 90)) == nil)
    // A flat marker lying on a tilted, turned map.
    map.camera = try Camera(latitude: 0, longitude: 0, zoom: 18, bearing: 60, viewingAngle: 50)
    map.clear()
    let flat = Marker(position: Coordinate(latitude: 0, longitude: 0), icon: squareIcon(20))
    flat.isFlat = true
    flat.groundAnchor = MarkerAnchor(x: 0.5, y: 0.5)
    map.add(flat)
    _ = try map.snapshot()
    #expect(map.marker(at: ScreenPoint(x: 50, y: 50)) === flat)
    #expect(map.marker(at: ScreenPoint(x: 50, y: 20)) == nil)
    #expect(flat.map === map)
    map.remove(flat)
    #expect(flat.map == nil && map.markers.isEmpty)
  }

  @Test func collisionsHideLowerPriorityOptionalMarkers() throws {
    let camera = try Camera(latitude: 0, longitude: 0, zoom: 18)
    let map = try markerMap(camera, width: 120, height: 120)
    map.accessibilityElementsHidden = false
    func marker(_ title: String, _ dx: Double, _ behaviour: MarkerCollisionBehavior, z: Int = 0) -> Marker {
      let marker = Marker(position: Coordinate(latitude: 0, longitude: dx / 1_000_000), title: title)
      marker.collisionBehavior = behaviour
      marker.zIndex = z
      return marker
    }
    let required = marker("required", 0, .requiredAndHidesOptional)
    let hidden = marker("hidden", 3, .optionalAndHidesLowerPriority, z: 9)
    let high = marker("high", 250, .optionalAndHidesLowerPriority, z: 2)
    let low = marker("low", 253, .optionalAndHidesLowerPriority, z: 1)
    let plain = marker("plain", 256, .required)
    map.add([required, hidden, high, low, plain])
    let titles = try map.snapshot().accessibilityElements.compactMap(\.title)
    #expect(Set(titles) == ["required", "high", "plain"])
  }

  @Test func atlasStoresEachPictureOnce() throws {
    let camera = try Camera(latitude: 0, longitude: 0, zoom: 12)
    let map = try markerMap(camera, width: 64, height: 64)
    let shared = MarkerIcon.markerImage(color: Color(r: 40, g: 120, b: 220))
    // A second icon object with the same pixels.
    let twin = MarkerIcon.markerImage(color: Color(r: 40, g: 120, b: 220))
    for index in 0..<1000 {
      map.add(
        Marker(
          position: Coordinate(latitude: Double(index % 40) * 0.0005, longitude: Double(index / 40) * 0.0005),
          icon: index % 2 == 0 ? shared : twin))
    }
    _ = try map.snapshot()
    let statistics = map.markerStatistics
    #expect(statistics.icons == 1 && statistics.pages == 1)
    #expect(statistics.atlasBytes <= 256 * 256 * 4)
    #expect(statistics.drawn < 1000, "occlusion culling leaves hidden markers out")
  }

  @Test(arguments: [1.0, 2, 3])
  func defaultPinIsDrawnAtEveryScale(scale: Double) throws {
    let image = MarkerIcon.defaultPin.image(forScale: scale).image
    #expect(image.width == Int(27 * scale) && image.height == Int(43 * scale))
    let straight = image.straightAlpha()
    // Head centre: the dark dot; body: Google red; corners: transparent; tip: at the bottom.
    let dot = straight.pixel(x: image.width / 2, y: Int(13 * scale))
    #expect(dot.a == 255 && dot.r < 110)
    let body = straight.pixel(x: image.width / 2, y: Int(26 * scale))
    #expect(body.a == 255 && body.r > 200 && body.g < 90)
    #expect(straight.pixel(x: 0, y: image.height - 1).a == 0)
    #expect(straight.pixel(x: image.width / 2, y: image.height - Int(2 * scale)).a > 100)
    let tinted = MarkerIcon.markerImage(color: Color(r: 20, g: 160, b: 60)).image(forScale: scale).image
    let green = tinted.straightAlpha().pixel(x: image.width / 2, y: Int(26 * scale))
    #expect(green.g > 150 && green.r < 40)
  }

  @Test func iconVariantsFollowTheScale() throws {
    func image(_ size: Int) -> RGBAImage {
      RGBAImage(width: size, height: size, pixels: [UInt8](repeating: 200, count: size * size * 4), alpha: .straight)
    }
    let icon = MarkerIcon(variants: [(1, image(10)), (2, image(20)), (3, image(30))])
    #expect(icon.image(forScale: 1).image.width == 10)
    #expect(icon.image(forScale: 2).image.width == 20)
    #expect(icon.image(forScale: 2.5).image.width == 30)
    #expect(icon.image(forScale: 4).image.width == 30)
    // Files: pin.png with pin@2x.png beside it.
    let folder = NSTemporaryDirectory() + "tessera-icons-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data(try PNGCodec.encode(image(12))).write(to: URL(fileURLWithPath: folder + "/pin.png"))
    try Data(try PNGCodec.encode(image(24))).write(to: URL(fileURLWithPath: folder + "/pin@2x.png"))
    let loaded = try MarkerIcon(contentsOfFile: folder + "/pin.png")
    #expect(loaded.image(forScale: 2).image.width == 24 && loaded.image(forScale: 1).image.width == 12)
    #expect(throws: MarkerError.self) { try MarkerIcon(contentsOfFile: folder + "/missing.png") }
  }

  @Test func appearAnimationsPopAndFade() throws {
    let camera = try Camera(latitude: 0, longitude: 0, zoom: 18)
    let map = try markerMap(camera, width: 100, height: 100)
    let pop = Marker(position: Coordinate(latitude: 0, longitude: -0.0001), icon: squareIcon(12))
    pop.appearAnimation = .pop
    pop.groundAnchor = MarkerAnchor(x: 0.5, y: 0.5)
    let fade = Marker(position: Coordinate(latitude: 0, longitude: 0.0001), icon: squareIcon(12))
    fade.appearAnimation = .fadeIn
    fade.groundAnchor = MarkerAnchor(x: 0.5, y: 0.5)
    map.add([pop, fade])
    let popPoint = try #require(map.projection.point(for: pop.position))
    let fadePoint = try #require(map.projection.point(for: fade.position))
    func brightness(_ point: ScreenPoint, _ image: RGBAImage) -> Int {
      Int(image.pixel(x: Int(point.x), y: Int(point.y)).r)
    }
    map.markerAppearProgress = 0
    var image = try map.snapshot().image
    #expect(brightness(popPoint, image) == 0 && brightness(fadePoint, image) == 0)
    map.markerAppearProgress = 0.5
    image = try map.snapshot().image
    #expect(brightness(popPoint, image) == 255)
    #expect(abs(brightness(fadePoint, image) - 128) <= 1)
    map.markerAppearProgress = 1
    image = try map.snapshot().image
    #expect(brightness(popPoint, image) == 255 && brightness(fadePoint, image) == 255)
  }

  @Test func cullingDrawsWhatDrawingEverythingDraws() throws {
    let camera = try Camera(latitude: 0.002, longitude: 0.002, zoom: 16.5, bearing: 20, viewingAngle: 40)
    var random = SeededRandom(seed: 77)
    var markers: [Marker] = []
    let colors: [MarkerIcon] = [
      .defaultPin, .markerImage(color: Color(r: 30, g: 100, b: 230)), .markerImage(color: Color(r: 20, g: 150, b: 70)),
    ]
    for index in 0..<1500 {
      let marker = Marker(
        position: Coordinate(latitude: random.double(in: 0...0.004), longitude: random.double(in: 0...0.004)),
        icon: colors[index % 3])
      if index % 7 == 0 { marker.rotation = random.double(in: 0...360) }
      if index % 11 == 0 { marker.isFlat = true }
      if index % 13 == 0 { marker.zIndex = 1 }
      markers.append(marker)
    }
    func render(threshold: Int) throws -> RGBAImage {
      let map = try markerMap(camera, width: 320, height: 240)
      map.markerOcclusionThreshold = threshold
      for marker in markers { map.add(marker) }
      defer { map.clear() }
      return try map.snapshot().image
    }
    let culled = try render(threshold: 1)
    let whole = try render(threshold: .max)
    // Parts drawn as smaller quads may round a channel differently; nothing else differs.
    var worst = 0
    for (a, b) in zip(culled.pixels, whole.pixels) { worst = max(worst, abs(Int(a) - Int(b))) }
    #expect(worst <= 2, "largest channel difference \(worst)")
  }
}

@Suite struct SceneMarkerTests {
  @Test func scenesListMarkersAndMarkerSets() throws {
    let folder = NSTemporaryDirectory() + "tessera-scene-markers-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let icon = RGBAImage(width: 8, height: 8, pixels: [UInt8](repeating: 255, count: 256), alpha: .straight)
    try Data(try PNGCodec.encode(icon)).write(to: URL(fileURLWithPath: folder + "/dot.png"))
    let geojson = #"""
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [7.42, 43.73]}, "properties": {"icon": "dot", "zIndex": 2, "title": "A"}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [7.43, 43.74]}, "properties": {"flat": true, "rotation": 30}},
        {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}, "properties": {}}]}
      """#
    try Data(geojson.utf8).write(to: URL(fileURLWithPath: folder + "/set.geojson"))
    let scene = #"""
      {"camera": {"latitude": 43.735, "longitude": 7.425, "zoom": 14}, "mapType": "none",
       "markers": [
         {"position": [43.735, 7.425], "title": "listed", "color": "#2060ff", "groundAnchor": [0.5, 0.5],
          "appearAnimation": "pop", "collisionBehavior": "optionalAndHidesLowerPriority", "opacity": 0.5},
         {"geojson": "set.geojson", "icons": {"dot": "dot.png"}, "groundAnchor": [0.5, 1]}]}
      """#
    let path = folder + "/scene.json"
    try Data(scene.utf8).write(to: URL(fileURLWithPath: path))
    let map = try Map(scene: try Scene.load(path: path), gpu: .surfaceless)
    #expect(map.markers.count == 3)
    let listed = map.markers[0]
    #expect(listed.title == "listed" && listed.appearAnimation == .pop && listed.opacity == 0.5)
    #expect(listed.collisionBehavior == .optionalAndHidesLowerPriority && listed.groundAnchor.y == 0.5)
    #expect(map.markers[1].zIndex == 2 && map.markers[1].title == "A" && map.markers[1].icon != nil)
    #expect(map.markers[2].isFlat && map.markers[2].rotation == 30 && map.markers[2].icon == nil)
    // A missing icon and an unknown icon name are errors naming the field.
    let bad = #"{"markers": {"geojson": "set.geojson", "icons": {"dot": "nope.png"}}}"#
    try Data(bad.utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: MarkerError.self) { try Map(scene: try Scene.load(path: path), gpu: .surfaceless) }
    let unknown = #"{"markers": {"geojson": "set.geojson", "icons": {}}}"#
    try Data(unknown.utf8).write(to: URL(fileURLWithPath: path))
    do {
      _ = try Map(scene: try Scene.load(path: path), gpu: .surfaceless)
      Issue.record("an unknown icon name must be an error")
    } catch let error as MarkerError {
      #expect(error.description.contains("no icon named 'dot'"))
    }
  }
}
