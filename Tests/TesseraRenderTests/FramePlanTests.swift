import Tessera
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraRender
import Testing

/// Planning a frame draws nothing: these tests check the plans of the frame layers that need
/// no tile data (the cache they get is never touched).
@Suite struct FramePlanTests {
  func transform(tilt: Double = 0, bearing: Double = 0) throws -> CameraTransform {
    CameraTransform(
      camera: try Camera(latitude: 0, longitude: 0, zoom: 3, bearing: bearing, viewingAngle: tilt),
      viewport: try Viewport(width: 512, height: 512))
  }

  /// The plan of `layers` seen through `transform`.
  func plan(_ layers: [any FrameLayer], _ transform: CameraTransform, background: Color = .lightGray) throws
    -> FramePlan
  {
    let resources = GPUResourceCache(device: try GLDevice(gpu: .surfaceless))
    return try FrameComposer.compose(layers, transform: transform, background: background, resources: resources).plan
  }

  static let cell = Pipeline(DebugTileGrid.GridPipeline.cell)
  static let border = Pipeline(DebugTileGrid.GridPipeline.border)

  @Test func gridPlanHasABorderPerTileAndAFillPerOddTile() throws {
    let plan = try plan([DebugTileGrid()], transform())
    let borders = plan.commands.filter { $0.pipeline == FramePlanTests.border }
    let fills = plan.commands.filter { $0.pipeline == FramePlanTests.cell }
    #expect(borders.count == 4)
    #expect(fills.count == 2)
    #expect(plan.pixelWidth == 512 && plan.clearColor == .lightGray)
    // Fills come before borders, so borders are drawn on top.
    let firstBorder = plan.commands.firstIndex { $0.pipeline == FramePlanTests.border }!
    #expect(plan.commands[..<firstBorder].allSatisfy { $0.pipeline == FramePlanTests.cell })
  }

  @Test func tileMatricesMapTileCornersToTheirProjectedPoints() throws {
    for (tilt, bearing) in [(0.0, 0.0), (30, 70)] {
      let view = try transform(tilt: tilt, bearing: bearing)
      let plan = try plan([DebugTileGrid()], view, background: .white)
      let tiles = TileCovering(tileSize: 256).tiles(for: view)
      let borders = plan.commands.filter { $0.pipeline == FramePlanTests.border }
      #expect(borders.count == tiles.count)
      for (tile, command) in zip(tiles, borders) {
        guard case .mat4(let m) = command.uniforms.value(of: DebugTileGrid.matrix) else {
          Issue.record("no matrix")
          continue
        }
        // The tile's far corner (1, 1) in tile units.
        let x = Double(m[0]) + Double(m[4]) + Double(m[12])
        let y = Double(m[1]) + Double(m[5]) + Double(m[13])
        let w = Double(m[3]) + Double(m[7]) + Double(m[15])
        let size = view.worldSize / Double(tile.tile.tilesPerSide)
        let origin = tile.origin(worldSize: view.worldSize)
        let (dx, dy) = view.offsetFromTarget(WorldPoint(x: origin.x + size, y: origin.y + size))
        let expected = try #require(view.screenPoint(dx: dx, dy: dy))
        #expect(abs((x / w + 1) * 256 - expected.x) < 0.01)
        #expect(abs((1 - y / w) * 256 - expected.y) < 0.01)
      }
    }
  }

  @Test func sortKeysOrderPassesThenLayersThenOrderStably() {
    let a = DrawCommand(
      key: SortKey(pass: .translucent, layer: 1, order: 0), pipeline: FramePlanTests.border,
      mesh: .builtin(.unitSquareRing))
    let b = DrawCommand(
      key: SortKey(pass: .opaque, layer: 5, order: 9), pipeline: FramePlanTests.cell, mesh: .builtin(.unitSquare))
    let c = DrawCommand(
      key: SortKey(pass: .translucent, layer: 0, order: 3), pipeline: FramePlanTests.cell, mesh: .builtin(.unitSquare))
    // Offscreen work of a later layer, drawn before the frame's own pass.
    let d = DrawCommand.switchTarget(to: nil, key: SortKey(pass: .prelude, layer: 7, order: 1))
    let plan = FramePlan(pixelWidth: 1, pixelHeight: 1, clearColor: .white, commands: [a, b, c, d])
    #expect(plan.commands.map(\.key) == [d.key, b.key, c.key, a.key])
  }

  /// Frame layers go into one list in order: each starts its own slots, and passes sort first
  /// (points in the overlay pass draw after the grid added later).
  @Test func layersShareOneOrderedListOfDraws() throws {
    let points = PointsLayer(points: [PointsLayer.Point(Coordinate(latitude: 0, longitude: 0), color: .white)])
    let plan = try plan([points, DebugTileGrid()], transform())
    #expect(plan.commands.count == 7)
    #expect(plan.commands.last?.pipeline == Pipeline(PointsLayer.PointsPipeline()))
    #expect(plan.commands.dropLast().allSatisfy { $0.key.pass == .translucent && $0.key.layer == 1 })
    #expect(plan.commands.last?.key.layer == 0)
  }

  /// Uniforms are set through typed slots: a later value for a slot replaces the earlier one.
  @Test func uniformValuesKeepOneValuePerSlot() {
    let first = UniformSlot<Float>("u_first")
    let second = UniformSlot<SIMD2<Float>>("u_second")
    var uniforms = UniformValues()
    uniforms.set(first, 1)
    uniforms.set(second, SIMD2(2, 3))
    uniforms.set(first, 4)
    #expect(uniforms.entries.map(\.slot.name) == ["u_first", "u_second"])
    #expect(uniforms.value(of: first) == .float(4) && uniforms.value(of: second) == .vec2(2, 3))
    // Slots are told apart by identity, not by name.
    #expect(uniforms.value(of: UniformSlot<Float>("u_first")) == nil)
  }
}

@Suite struct SnapshotTests {
  @Test func sameInputSameBytes() throws {
    let options = MapOptions(
      width: 200, height: 150, camera: try Camera(latitude: 10, longitude: 20, zoom: 6.3, bearing: 12, viewingAngle: 30)
    )
    let first = try Map(options: options, gpu: .surfaceless).snapshot().image
    let second = try Map(options: options, gpu: .software).snapshot().image
    #expect(first == second)
  }

  @Test func manySnapshotsInOneProcessDoNotLeakGPUResources() throws {
    let map = try Map(
      options: MapOptions(width: 64, height: 64, camera: try Camera(latitude: 0, longitude: 0, zoom: 2)),
      gpu: .surfaceless)
    let before = map.device.resourceCounts
    for frame in 0..<50 {
      map.camera = try Camera(latitude: 0, longitude: Double(frame), zoom: 2, viewingAngle: 20)
      _ = try map.snapshot()
    }
    let after = map.device.resourceCounts
    #expect(after.buffers <= max(before.buffers, 2) && after.renderTargets == 1)
  }

  @Test func invalidViewsAreErrors() throws {
    #expect(throws: GeoError.self) { try Map(options: MapOptions(width: 0, height: 10), gpu: .surfaceless) }
    #expect(throws: GeoError.self) {
      try Map(options: MapOptions(width: 10, height: 10, scale: .nan), gpu: .surfaceless)
    }
    let huge = try Map(options: MapOptions(width: 100_000, height: 100_000), gpu: .surfaceless)
    #expect(throws: (any Error).self) { try huge.snapshot() }
  }
}
