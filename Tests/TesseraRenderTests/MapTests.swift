import Tessera
import TesseraGeo
import TesseraImage
import Testing

@Suite struct MapTests {
  @Test func movesAndClampsLikeTheModel() throws {
    let map = try Map(
      options: MapOptions(width: 200, height: 100, camera: try Camera(latitude: 0, longitude: 0, zoom: 5)),
      gpu: .surfaceless)
    map.moveCamera(.zoomIn)
    #expect(map.camera.zoom == 6)
    try map.setMinZoom(8, maxZoom: 9)
    #expect(map.camera.zoom == 8)
    #expect(throws: GeoError.self) { try map.setMinZoom(9, maxZoom: 8) }
    map.cameraTargetBounds = CoordinateBounds(south: 10, west: 10, north: 20, east: 20)
    #expect(map.camera.target == Coordinate(latitude: 10, longitude: 10))
    try map.setPadding(EdgeInsets(top: 0, left: 0, bottom: 50, right: 0))
    let point = try #require(map.projection.point(for: map.camera.target))
    #expect(abs(point.y - 25) < 1e-9)
  }

  @Test func rendersAnAnimationFrameByFrameEndingAtTheEnd() throws {
    let start = try Camera(latitude: 43.7, longitude: 7.4, zoom: 12)
    let end = try Camera(latitude: 43.75, longitude: 7.45, zoom: 15, bearing: 90, viewingAngle: 45)
    let map = try Map(options: MapOptions(width: 64, height: 48, camera: start), gpu: .surfaceless)
    let animation = try CameraAnimation(from: start, to: end, duration: 0.5)
    var frames: [Map.AnimationFrame] = []
    try map.render(animation, framesPerSecond: 10) { frames.append($0) }
    #expect(frames.count == 6)
    #expect(frames.first?.camera == start && frames.last?.camera == end && map.camera == end)
    #expect(frames[2].snapshot.image != frames[3].snapshot.image)
    #expect(throws: GeoError.self) { try map.render(animation, framesPerSecond: 0) { _ in } }
  }

  @Test func animationsStartAtTheCurrentCameraAndEndClamped() throws {
    let map = try Map(
      options: MapOptions(width: 64, height: 64, camera: try Camera(latitude: 0, longitude: 0, zoom: 10)),
      gpu: .surfaceless)
    try map.setMinZoom(0, maxZoom: 12)
    let toCamera = try map.animation(to: try Camera(latitude: 5, longitude: 5, zoom: 20, viewingAngle: 60), duration: 3)
    #expect(toCamera.start == map.camera && toCamera.end.zoom == 12 && toCamera.duration == 3)
    #expect(abs(toCamera.end.viewingAngle - CameraLimits.googleMaxTilt(zoom: 12)) < 1e-12)
    let byUpdate = try map.animation(with: .zoomOut)
    #expect(byUpdate.end.zoom == 9 && byUpdate.duration == CameraAnimation.defaultDuration)
  }

  /// `animateToBearing:` and `animateToViewingAngle:` change that one value; the others stay.
  @Test func bearingAndTiltAnimationsChangeOnlyTheirValue() throws {
    let start = try Camera(latitude: 43.7, longitude: 7.4, zoom: 16, bearing: 350, viewingAngle: 20)
    let map = try Map(options: MapOptions(width: 32, height: 32, camera: start, mapType: .none), gpu: .surfaceless)
    let turn = try map.animation(toBearing: 30, duration: 2)
    #expect(turn.end.bearing == 30 && turn.end.target == start.target && turn.end.viewingAngle == 20)
    // The short way round: through north.
    #expect(abs(turn.camera(at: 1).bearing - 10) < 1e-9, "halfway from 350 to 30 through north")
    let tilt = try map.animation(toViewingAngle: 80)
    #expect(tilt.end.viewingAngle == CameraLimits.googleMaxTilt(zoom: 16) && tilt.end.bearing == 350)
    let zoom = try map.animation(toZoom: 12)
    #expect(zoom.end.zoom == 12 && zoom.end.bearing == 350)
    let location = try map.animation(toLocation: Coordinate(latitude: 43.8, longitude: 7.5))
    #expect(location.end.target == Coordinate(latitude: 43.8, longitude: 7.5) && location.end.zoom == 16)
    let scene = try Scene.parse(Array(#"{"animation": {"bearing": 90, "duration": 1}}"#.utf8), path: "s.json")
    #expect(scene.animation?.destination == .bearing(90))
    let tiltScene = try Scene.parse(Array(#"{"animation": {"viewingAngle": 45}}"#.utf8), path: "s.json")
    #expect(tiltScene.animation?.destination == .viewingAngle(45))
  }

  /// In a rendered animation, appear animations play from the first frame.
  @Test func appearAnimationsPlayOverTheFirstFrames() throws {
    let camera = try Camera(latitude: 0, longitude: 0, zoom: 18)
    let map = try Map(
      options: MapOptions(width: 60, height: 60, camera: camera, backgroundColor: .black, mapType: .none),
      gpu: .surfaceless)
    let marker = Marker(position: Coordinate(latitude: 0, longitude: 0))
    marker.appearAnimation = .fadeIn
    marker.groundAnchor = MarkerAnchor(x: 0.5, y: 0.5)
    map.add(marker)
    let animation = try map.animation(toBearing: 0, duration: 0.6)
    var brightness: [Int] = []
    try map.render(animation, framesPerSecond: 10) { frame in
      brightness.append(Int(frame.snapshot.image.pixel(x: 30, y: 30).r))
    }
    #expect(brightness.count == 7)
    // 0 at the start, growing over MarkerAppearAnimation.duration (0.3 s), then steady.
    #expect(brightness[0] < 10 && brightness[1] < brightness[2] && brightness[2] < brightness[3])
    #expect(brightness[3] == brightness[6] && brightness[6] > 150)
    #expect(map.markerAppearProgress == 1)
  }

  @Test func sceneUpdatesAndAnimationParse() throws {
    let text = #"""
      {"camera": {"latitude": 1, "longitude": 2, "zoom": 3}, "cameraTargetBounds": [0, 0, 10, 10],
       "updates": ["zoomBy:2@10,20", "fit:0,0,5,5@8"], "sky": "#102030",
       "animation": {"update": "zoomIn", "duration": 2, "fps": 12, "easing": "linear"}}
      """#
    let scene = try Scene.parse(Array(text.utf8), path: "s.json")
    #expect(
      scene.updates == [
        .zoomBy(2, atPoint: ScreenPoint(x: 10, y: 20)),
        .fit(CoordinateBounds(south: 0, west: 0, north: 5, east: 5), padding: 8),
      ])
    #expect(
      scene.animation
        == SceneAnimation(destination: .update(.zoomIn), duration: 2, framesPerSecond: 12, easing: .linear))
    #expect(scene.options.cameraTargetBounds == CoordinateBounds(south: 0, west: 0, north: 10, east: 10))
    #expect(scene.options.skyColor == Color(r: 16, g: 32, b: 48))
  }

  @Test(arguments: [
    (#"{"updates": ["zoomBy:x"]}"#, "updates[0]: 'x': expected zoomBy:D or zoomBy:D@X,Y"),
    (#"{"animation": {"duration": 3}}"#, "animation.to: expected a camera object"),
    (#"{"animation": {"update": "zoomIn", "fps": 0}}"#, "animation.fps: must be more than 0"),
    (#"{"cameraTargetBounds": [0, 5, 1, 2]}"#, "cameraTargetBounds: expected [west, south, east, north]"),
  ])
  func badCameraSectionsNameTheField(_ text: String, _ message: String) {
    do {
      _ = try Scene.parse(Array(text.utf8), path: "s.json")
      Issue.record("parsed: \(text)")
    } catch {
      #expect(error.description.contains(message), "\(error)")
    }
  }
}

@Suite struct CameraUpdateTextTests {
  @Test(arguments: [
    ("zoomIn", CameraUpdate.zoomIn), ("zoomOut", .zoomOut), ("zoomTo:3.5", .zoomTo(3.5)), ("zoomBy:-1", .zoomBy(-1)),
    ("zoomBy:1@5,6", .zoomBy(1, atPoint: ScreenPoint(x: 5, y: 6))),
    ("target:1,2", .setTarget(Coordinate(latitude: 1, longitude: 2))),
    ("target:1,2,9", .setTarget(Coordinate(latitude: 1, longitude: 2), zoom: 9)),
    ("scrollBy:10,-20", .scrollBy(x: 10, y: -20)),
    ("fit:1,2,3,4", .fit(CoordinateBounds(south: 2, west: 1, north: 4, east: 3))),
    (
      "fit:1,2,3,4@1,2,3,4",
      .fit(
        CoordinateBounds(south: 2, west: 1, north: 4, east: 3), insets: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
      )
    ),
  ])
  func parses(_ text: String, _ expected: CameraUpdate) throws {
    #expect(try CameraUpdate(text: text) == expected)
  }

  @Test(arguments: [
    "", "zoom", "zoomTo:", "zoomTo:nan", "zoomBy:1@2", "target:1", "fit:1,2,3", "fit:0,5,1,2", "fit:1,2,3,4@-1",
    "camera:1,2", "zoomIn:3",
  ])
  func rejects(_ text: String) {
    #expect(throws: CameraUpdateSyntaxError.self) { try CameraUpdate(text: text) }
  }
}
