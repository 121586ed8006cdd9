import Tessera
import TesseraGeo
import TesseraImage
import TesseraRender
import Testing

/// The frame plan is pure: these tests need no GPU.
@Suite struct FramePlanTests {
  func transform(tilt: Double = 0, bearing: Double = 0) throws -> CameraTransform {
    CameraTransform(
      camera: try Camera(latitude: 0, longitude: 0, zoom: 3, bearing: bearing, viewingAngle: tilt),
      viewport: try Viewport(width: 512, height: 512))
  }

  @Test func gridPlanHasABorderPerTileAndAFillPerOddTile() throws {
    let frame = FrameDescription(
      transform: try transform(), background: .lightGray, layers: [.debugTileGrid(DebugTileGrid())])
    let plan = FramePlanner.plan(frame)
    let borders = plan.commands.filter { $0.pipeline == .debugTileBorder }
    let fills = plan.commands.filter { $0.pipeline == .debugTileFill }
    #expect(borders.count == 4)
    #expect(fills.count == 2)
    #expect(plan.pixelWidth == 512 && plan.clearColor == .lightGray)
    // Fills come before borders, so borders are drawn on top.
    let firstBorder = plan.commands.firstIndex { $0.pipeline == .debugTileBorder }!
    #expect(plan.commands[..<firstBorder].allSatisfy { $0.pipeline == .debugTileFill })
  }

  @Test func tileMatricesMapTileCornersToTheirProjectedPoints() throws {
    for (tilt, bearing) in [(0.0, 0.0), (30, 70)] {
      let view = try transform(tilt: tilt, bearing: bearing)
      let plan = FramePlanner.plan(
        FrameDescription(transform: view, background: .white, layers: [.debugTileGrid(DebugTileGrid())]))
      let tiles = TileCovering(tileSize: 256).tiles(for: view)
      for command in plan.commands where command.pipeline == .debugTileBorder {
        guard case .mat4(let m) = command.uniforms.first(where: { $0.name == "u_matrix" })?.value else {
          Issue.record("no matrix")
          continue
        }
        let tile = tiles[command.key.order - tiles.count]
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
      key: SortKey(pass: .translucent, layer: 1, order: 0), pipeline: .debugTileBorder, mesh: .builtin(.unitSquareRing),
      uniforms: [])
    let b = DrawCommand(
      key: SortKey(pass: .opaque, layer: 5, order: 9), pipeline: .debugTileFill, mesh: .builtin(.unitSquare),
      uniforms: [])
    let c = DrawCommand(
      key: SortKey(pass: .translucent, layer: 0, order: 3), pipeline: .debugTileFill, mesh: .builtin(.unitSquare),
      uniforms: [])
    let plan = FramePlan(pixelWidth: 1, pixelHeight: 1, clearColor: .white, commands: [a, b, c])
    #expect(plan.commands.map(\.key) == [b.key, c.key, a.key])
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
