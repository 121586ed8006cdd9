import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraRender
import TesseraTestSupport
import Testing

@testable import Tessera

/// The first frame of a style loads and tessellates its tiles on another thread while the
/// rendering thread makes the pipelines it expects the frame to draw with.
@Suite struct FirstFrameTests {
  static let cameras = [
    try! Camera(latitude: 43.7384, longitude: 7.4246, zoom: 16.5, bearing: 30, viewingAngle: 55),
    try! Camera(latitude: 43.7384, longitude: 7.4246, zoom: 14),
  ]

  @Test(arguments: FirstFrameTests.cameras)
  func warmUpChangesNoPixelAndPredictsEveryPipeline(camera: Camera) throws {
    // One device for both maps: a context is current on one thread at a time.
    let device = try GLDevice(gpu: .surfaceless)
    let map = try Map(options: MapOptions(width: 160, height: 120, camera: camera), device: device)
    // The first snapshot takes the prepared path, the second finds everything cached.
    let first = try map.snapshot()
    #expect(first.statistics.bucketsBuilt > 0)
    let second = try map.snapshot()
    #expect(second.statistics.bucketsBuilt == 0)
    #expect(first.image == second.image)
    // A fresh map without the warm-up (another style renderer's first frame is prepared; this
    // one is drawn through the plain path) draws the same pixels.
    let plain = try Map(options: MapOptions(width: 160, height: 120, camera: camera), device: device)
    plain.markWarmedUp()
    #expect(try plain.snapshot().image == first.image)

    let (drawn, predicted) = try map.drawnAndPredictedPipelines()
    #expect(!drawn.isEmpty)
    #expect(drawn.isSubset(of: predicted), "not predicted: \(drawn.subtracting(predicted))")
  }

  /// Unrotated, untilted views clip tiles with scissor rectangles, others with clip planes
  /// (llvmpipe has them) or, where a device has none, stencil masks.
  @Test(arguments: [true, false]) func flatViewsClipWithScissorsOthersWithPlanesOrMasks(planes: Bool) throws {
    for (camera, flat) in [(FirstFrameTests.cameras[1], true), (FirstFrameTests.cameras[0], false)] {
      let map = try Map(options: MapOptions(width: 160, height: 120, camera: camera), gpu: .surfaceless)
      #expect(map.device.info.limits.clipsTilesByPlanes, "llvmpipe has GL_EXT_clip_cull_distance")
      let renderer = try #require(map.styleRenderer)
      let resources = GPUResourceCache(device: map.device)
      resources.clipsTilesByPlanes = planes
      let commands = try FrameComposer.compose(
        [renderer.frameLayer()], transform: map.state.transform, background: .white, resources: resources
      ).plan.commands
      let clipped = commands.filter {
        guard let style = $0.pipeline?.variant as? StylePipeline else { return false }
        return ["fill", "line"].contains(style.program.name)
      }
      #expect(!clipped.isEmpty)
      let clipMasks = commands.filter { ($0.pipeline?.variant as? StylePipeline)?.program.name == "clip" }
      if flat {
        #expect(clipMasks.isEmpty)
        #expect(clipped.allSatisfy { $0.scissor != nil && $0.stencilReference == nil })
        // The rectangles tile the view: together they cover every pixel once.
        let rects = Set(clipped.compactMap(\.scissor))
        #expect(rects.reduce(0) { $0 + Int($1.width) * Int($1.height) } == 160 * 120)
      } else if planes {
        #expect(clipMasks.isEmpty)
        #expect(
          clipped.allSatisfy {
            $0.scissor == nil && $0.stencilReference == nil
              && ($0.pipeline?.variant as? StylePipeline)?.clipPlanes == true
          })
      } else {
        #expect(!clipMasks.isEmpty)
        #expect(clipped.allSatisfy { $0.scissor == nil && $0.stencilReference != nil })
      }
    }
  }

  /// Clip planes cut tiles where stencil masks do: rotated and tilted views of Monaco in
  /// Liberty (translucent fills and antialiased lines crossing tile edges, which would blend
  /// twice unclipped) drawn both ways differ in at most a few edge pixels, and the planes draw
  /// no mask.
  @Test func clipPlanesDrawWhatStencilMasksDraw() throws {
    guard SharedData.isAvailable else {
      print("skipped clipPlanesDrawWhatStencilMasksDraw: \(SharedData.skipReason)")
      return
    }
    let device = try GLDevice(gpu: .surfaceless)
    let cameras = [
      FirstFrameTests.cameras[0],
      try Camera(latitude: 43.7384, longitude: 7.4246, zoom: 15.3, bearing: 200, viewingAngle: 40),
      try Camera(latitude: 43.7384, longitude: 7.4246, zoom: 17.2, bearing: 75, viewingAngle: 10),
    ]
    for camera in cameras {
      var options = MapOptions(width: 320, height: 240, camera: camera)
      options.attribution = .off
      func map() throws -> Map {
        try Map(
          preparation: MapPreparation(
            options: options, stylePath: SharedData.path("data/styles/monaco-liberty.json"),
            dataRoot: SharedData.path("data")),
          device: device)
      }
      let planes = try map()
      let masks = try map()
      masks.clipsTilesByPlanes = false
      let byPlanes = try planes.snapshot()
      let byMasks = try masks.snapshot()
      // A strict threshold (0.01, not MapLibre's 0.1285): double-blended buffers differ by a
      // few levels only (drawn unclipped, 156 to 1607 of these pixels differ; clipped, 0 or 1).
      let result = try PixelDiff(threshold: 0.01, blending: .premultiplied).compare(byPlanes.image, byMasks.image)
      #expect(result.differentFraction <= 0.0005, "\(camera): \(result.differentPixels) pixels differ")
      #expect(byPlanes.statistics.drawCalls < byMasks.statistics.drawCalls, "the masks' draws are gone")
    }
  }

  /// A map adopting a preparation (made before its device, tiles loading meanwhile) draws
  /// what a map made directly draws, also when the camera moved before the first frame.
  @Test func preparedMapsDrawTheSameAsDirectOnes() throws {
    let camera = FirstFrameTests.cameras[0]
    let options = MapOptions(width: 160, height: 120, camera: camera)
    // One device for all the maps: a context is current on one thread at a time.
    let device = try GLDevice(gpu: .surfaceless)
    let direct = try Map(options: options, device: device).snapshot().image
    let prepared = try Map(preparation: MapPreparation(options: options), device: device)
    #expect(try prepared.snapshot().image == direct)

    let moved = try Map(preparation: MapPreparation(options: options), device: device)
    moved.moveCamera(.zoomIn)
    var zoomedOptions = options
    zoomedOptions.camera = moved.camera
    let zoomed = try Map(options: zoomedOptions, device: device).snapshot().image
    #expect(try moved.snapshot().image == zoomed)
  }

  /// Maps made for a GPU selection start EGL on another thread while the preparation runs: a
  /// preparation that throws gives its own error (the display goes on opening and serves the
  /// next map), and a map made so draws what one made on a given device draws.
  @Test func startingEGLBesideThePreparationKeepsItsErrorsAndPixels() throws {
    struct StyleUnreadable: Error {}
    #expect(throws: StyleUnreadable.self) {
      _ = try MapPreparation.startUp(gpu: .surfaceless) { throw StyleUnreadable() }
    }
    let options = MapOptions(width: 160, height: 120, camera: FirstFrameTests.cameras[0])
    let started = try Map(options: options, gpu: .surfaceless)
    let image = try started.snapshot().image
    let direct = try Map(options: options, device: GLDevice(gpu: .surfaceless)).snapshot().image
    #expect(image == direct)
    #expect(image.pixels.contains { $0 != 0 }, "the map drew something")
  }
}
