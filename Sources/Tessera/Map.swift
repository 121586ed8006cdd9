import Foundation
import Synchronization
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraRender

/// A headless map: Google's `GMSMapView` without a window. Set a camera, move it with
/// ``CameraUpdate``s, take snapshots or render animations.
///
/// A map draws with a ``GLDevice`` and, like it, belongs to the thread that made the device.
public final class Map {
  /// The camera, view and camera rules.
  public private(set) var state: MapState
  /// Shown where nothing is drawn.
  public var backgroundColor: Color
  /// The sky above the horizon (raised tilt caps only).
  public var skyColor: Color
  /// Whether the debug tile grid is drawn.
  public var showsTileGrid: Bool
  /// The device rendering is done with.
  public let device: GLDevice
  /// What the map draws.
  public internal(set) var content: MapContent
  /// The data the built-in map types draw.
  public internal(set) var data: MapData
  /// Whether the normal and terrain types show 3D buildings (`buildingsEnabled`); changing it
  /// redraws the current map type.
  public var buildingsEnabled: Bool {
    didSet {
      guard buildingsEnabled != oldValue, case .mapType(let type, let scheme) = content else { return }
      try? setMapType(type, colorScheme: scheme)
    }
  }
  /// Loads and caches tiles for every style this map draws.
  let tileLoader: TileLoader
  var styleRenderer: StyleRenderer?
  let markerLayer: MarkerLayerState
  /// `selectedMarker`: the marker whose info window shows (drawn once text rendering exists).
  public var selectedMarker: Marker?
  /// When false, snapshots list the visible markers as accessibility elements (the SDK's
  /// `accessibilityElementsHidden`, default true).
  public var accessibilityElementsHidden = true
  /// Progress (0…1) of the markers' appear animations in the next snapshot; 1 shows them
  /// finished.
  public var markerAppearProgress = 1.0
  private let executor: FrameExecutor
  /// The style renderer whose first frame has been drawn (its pipelines made).
  private weak var warmedUpRenderer: StyleRenderer?
  /// Tiles of the first frame, loading since before the map was made (``MapPreparation``).
  private var firstTiles: PendingTiles?

  /// Makes a map drawing with `device`; throws for an invalid view size, scale or padding, or
  /// an unsupported sample count. Maps on several threads can share one `tileLoader` (and so
  /// its cache of decoded tiles); by default the map gets its own, holding
  /// ``MapOptions/tileCacheBytes``.
  public init(options: MapOptions, device: GLDevice, tileLoader: TileLoader? = nil) throws {
    guard options.samples == 1 || options.samples == 4 else {
      throw GLError.unsupportedSamples(requested: options.samples, maximum: 4)
    }
    state = try options.mapState()
    backgroundColor = options.backgroundColor
    skyColor = options.skyColor
    showsTileGrid = options.showsTileGrid
    self.device = device
    executor = FrameExecutor(device: device, samples: options.samples, cacheBudget: options.gpuCacheBytes)
    self.tileLoader = tileLoader ?? TileLoader(cache: TileCache(budget: options.tileCacheBytes))
    markerLayer = MarkerLayerState(resources: executor.resources)
    content = .mapType(.none, options.colorScheme)
    data = options.data
    buildingsEnabled = options.buildingsEnabled
    if options.mapType != .none { try setMapType(options.mapType, colorScheme: options.colorScheme) }
  }

  /// Makes a map on a new device for `gpu` (see ``GPUSelection``). With cores to spare, EGL
  /// starts up on another thread while the style is read and the first frame's tiles load
  /// (``MapPreparation``).
  public convenience init(options: MapOptions, gpu: GPUSelection = .auto) throws {
    let (preparation, device) = try MapPreparation.startUp(gpu: gpu) { try MapPreparation(options: options) }
    try self.init(preparation: preparation, device: device)
  }

  /// Makes the map `preparation` describes, drawing with `device`; its first frame uses the
  /// tiles the preparation loaded (when the camera has not changed since).
  public convenience init(preparation: MapPreparation, device: GLDevice) throws {
    var options = preparation.options
    options.mapType = .none
    try self.init(options: options, device: device, tileLoader: preparation.tileLoader)
    styleRenderer = preparation.styleRenderer
    content = preparation.content
    firstTiles = preparation.firstTiles
  }

  /// The current camera; setting it applies the map's rules (clamping, target bounds).
  public var camera: Camera {
    get { state.camera }
    set { state.setCamera(newValue) }
  }

  /// Bytes of tile geometry and textures held on the GPU now.
  public var gpuCacheBytesUsed: Int { executor.resources.bytes }

  /// The projection of the current camera in the current view.
  public var projection: Projection { state.projection }

  /// Applies a camera update at once (`moveCamera:`).
  public func moveCamera(_ update: CameraUpdate) {
    state.move(update)
  }

  /// The camera (bearing 0, tilt 0) showing `bounds` inside the view minus padding and `insets`.
  public func camera(for bounds: CoordinateBounds, insets: EdgeInsets = .zero) -> Camera? {
    state.camera(for: bounds, insets: insets)
  }

  /// `setMinZoom:maxZoom:`: refuses min > max and re-clamps the camera.
  public func setMinZoom(_ minZoom: Double, maxZoom: Double) throws(GeoError) {
    try state.setMinZoom(minZoom, maxZoom: maxZoom)
  }

  /// When set, the camera target is kept inside these bounds.
  public var cameraTargetBounds: CoordinateBounds? {
    get { state.cameraTargetBounds }
    set { state.setCameraTargetBounds(newValue) }
  }

  /// Changes the padding (the visual centre moves; the camera stays).
  public func setPadding(_ padding: EdgeInsets) throws(GeoError) {
    let viewport = state.viewport
    state.setViewport(
      try Viewport(width: viewport.width, height: viewport.height, scale: viewport.scale, padding: padding))
  }

  /// The description of the next frame's overlays (pure; no GL): the tile grid and the sky.
  public func frameDescription() -> FrameDescription {
    var layers: [FrameDescription.Layer] = []
    if showsTileGrid { layers.append(.debugTileGrid(DebugTileGrid())) }
    layers.append(.sky(SkyLayer(skyColor: skyColor)))
    return FrameDescription(transform: state.transform, background: backgroundColor, layers: layers)
  }

  /// Draws the map and reads the pixels back (straight alpha unless `alpha` says otherwise).
  ///
  /// Waits for every tile the camera needs; tiles that fail are reported in the snapshot's
  /// warnings and drawn from an ancestor when one loads.
  public func snapshot(alpha: AlphaRepresentation = .straight) throws -> Snapshot {
    var statistics = FrameStatistics()
    let start = DispatchTime.now()
    let transform = state.transform
    var commands: [DrawCommand] = []
    var warnings: [String] = []
    var layerCount = 0
    var clearColor = backgroundColor
    if let styleRenderer {
      let prepared = try firstFramePreparation(styleRenderer, transform: transform)
      let frame = try styleRenderer.prepareFrame(
        transform: transform, pixelRatio: transform.viewport.scale, resources: executor.resources,
        prepared: prepared)
      commands = frame.commands
      warnings = frame.warnings
      statistics.tiles = frame.tileCount
      statistics.bucketsBuilt = frame.bucketsBuilt
      statistics.tileWaitMilliseconds = frame.timings.tileWait
      statistics.tileDecodeMilliseconds = frame.timings.tileDecode
      statistics.tessellationMilliseconds = frame.timings.tessellation
      statistics.uploadMilliseconds = frame.timings.upload
      statistics.commandPlanningMilliseconds = frame.timings.commandPlanning
      layerCount = styleRenderer.style.layers.count
      if let color = frame.clearColor { clearColor = color }
    }
    let overlays = FramePlanner.plan(frameDescription(), layerOffset: layerCount)
    // Markers draw above tiles and every other overlay.
    let markerCommands = try markerLayer.commands(
      for: transform, appear: markerAppearProgress, layer: layerCount + overlays.commands.count + 1)
    let plan = FramePlan(
      pixelWidth: overlays.pixelWidth, pixelHeight: overlays.pixelHeight, clearColor: clearColor,
      commands: commands + overlays.commands + markerCommands)
    let planned = DispatchTime.now()
    device.resetStatistics()
    try executor.execute(plan)
    let encoded = DispatchTime.now()
    device.finish()
    let drawn = DispatchTime.now()
    let image = try executor.readPixels(alpha: alpha)
    let read = DispatchTime.now()
    statistics.drawCalls = device.statistics.drawCalls
    statistics.triangles = device.statistics.triangles
    statistics.planMilliseconds = milliseconds(start, planned)
    statistics.commandEncodingMilliseconds = milliseconds(planned, encoded)
    statistics.drawMilliseconds = milliseconds(encoded, drawn)
    statistics.readbackMilliseconds = milliseconds(drawn, read)
    return Snapshot(
      image: image, statistics: statistics, warnings: warnings,
      accessibilityElements: accessibilityElementsHidden ? [] : markerAccessibilityElements())
  }

  /// For a style's first frame: loads and tessellates its tiles on another thread while this
  /// one makes the pipelines the frame is expected to use (on llvmpipe compiling their shader
  /// variants, the largest part of a first frame), in drawing order until the tiles are ready;
  /// then hands the tiles over (the frame makes any pipeline still missing). Later frames
  /// find pipelines made and most buckets on the GPU, and get nil.
  private func firstFramePreparation(_ renderer: StyleRenderer, transform: CameraTransform) throws
    -> StyleRenderer.PreparedTiles?
  {
    guard warmedUpRenderer !== renderer else { return nil }
    warmedUpRenderer = renderer
    let early = firstTiles
    firstTiles = nil
    let pending =
      early.flatMap { $0.renderer === renderer && $0.transform == transform ? $0 : nil }
      ?? PendingTiles(renderer: renderer, transform: transform)
    let viewport = transform.viewport
    do {
      try executor.warmUp(
        renderer.expectedPipelines(transform: transform), pixelWidth: viewport.pixelWidth,
        pixelHeight: viewport.pixelHeight, shouldStop: { pending.isReady })
    } catch {
      _ = pending.wait()
      throw error
    }
    return pending.wait()
  }

  /// Skips the first-frame preparation for the current style (its frames are drawn as later
  /// frames are), for comparisons.
  func markWarmedUp() {
    warmedUpRenderer = styleRenderer
  }

  /// `animateToCameraPosition:`: the animation from the current camera to `camera` (clamped by
  /// the map's rules). Render it with ``render(_:framesPerSecond:_:)`` or sample
  /// ``CameraAnimation/camera(at:)``.
  public func animation(
    to camera: Camera, duration: Double = CameraAnimation.defaultDuration, easing: CameraAnimation.Easing = .easeInOut
  ) throws(GeoError) -> CameraAnimation {
    var end = state
    end.setCamera(camera)
    return try CameraAnimation(
      from: state.camera, to: end.camera, duration: duration, easing: easing, limits: state.limits)
  }

  /// `animateWithCameraUpdate:`: the animation from the current camera to the one `update` gives.
  public func animation(
    with update: CameraUpdate, duration: Double = CameraAnimation.defaultDuration,
    easing: CameraAnimation.Easing = .easeInOut
  ) throws(GeoError) -> CameraAnimation {
    try CameraAnimation(state: state, update: update, duration: duration, easing: easing)
  }

  /// One frame of a rendered animation.
  public struct AnimationFrame {
    /// 0-based frame number.
    public let index: Int
    /// Seconds since the animation started.
    public let time: Double
    /// The camera of this frame.
    public let camera: Camera
    public let snapshot: Snapshot
  }

  /// Renders `animation` at `framesPerSecond` (the first frame at time 0, the last at the
  /// duration), handing each frame to `body` as it is drawn; the map's camera ends at the
  /// animation's end.
  public func render(
    _ animation: CameraAnimation, framesPerSecond: Double, _ body: (AnimationFrame) throws -> Void
  ) throws {
    guard framesPerSecond.isFinite, framesPerSecond > 0, framesPerSecond <= 240 else {
      throw GeoError.outOfRange(field: "frames per second", value: framesPerSecond, allowed: "0 < fps ≤ 240")
    }
    for (index, time) in animation.frameTimes(framesPerSecond: framesPerSecond).enumerated() {
      camera = animation.camera(at: time)
      try body(AnimationFrame(index: index, time: time, camera: camera, snapshot: try snapshot()))
    }
  }
}

/// Milliseconds between two instants.
func milliseconds(_ from: DispatchTime, _ to: DispatchTime) -> Double {
  Double(to.uptimeNanoseconds - from.uptimeNanoseconds) / 1e6
}
