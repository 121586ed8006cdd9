import Foundation
import Synchronization
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraRender
import TesseraText

/// A headless map: Google's `GMSMapView` without a window. Set a camera, move it with
/// ``CameraUpdate``s, take snapshots or render animations.
///
/// A map draws with a ``GLDevice``. It is used from one thread at a time, not necessarily
/// always the same one: each snapshot leaves the device's context free, so the next call may
/// come from another thread (a task resumed elsewhere, a pool's worker).
public final class Map {
  /// The camera, view and camera rules.
  public internal(set) var state: MapState
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
  /// Google styling of the built-in map types (GMSMapStyle); setting it redraws the current map
  /// type (a MapLibre style is not changed). Rules naming features the map type lacks are
  /// listed in ``styleWarnings``.
  public var mapStyle: MapStyle? {
    didSet {
      guard mapStyle != oldValue, case .mapType(let type, let scheme) = content else { return }
      try? setMapType(type, colorScheme: scheme)
    }
  }
  /// The venue floor plan shown (GMSIndoorDisplay); setting it (or its active level) redraws
  /// the current map type. Drawn by the built-in map types from zoom 17.
  public var indoorDisplay: IndoorDisplay? {
    didSet {
      guard indoorDisplay != oldValue, case .mapType(let type, let scheme) = content else { return }
      try? setMapType(type, colorScheme: scheme)
    }
  }
  /// The traffic drawn under the labels (``setTraffic(_:)``).
  public internal(set) var traffic: TrafficLayer?
  /// Loads and caches tiles for every style this map draws.
  let tileLoader: TileLoader
  /// How HTTP sources of later styles fetch.
  /// How later styles open sources and size frames (from the options).
  let styleSettings: StyleSettings
  var styleRenderer: StyleRenderer?
  var markerLayer: MarkerLayerState
  var overlayLayer = OverlayLayerState()
  /// `selectedMarker`: the marker whose info window shows, above every marker: its custom
  /// picture (``Marker/infoWindowIcon``) or the default bubble of its title and snippet.
  public var selectedMarker: Marker?
  /// What the bottom-right corner credits (``Attribution/sources`` by default).
  public var attribution: Attribution
  /// Whether a scale bar (metres and feet at the camera target) shows in the bottom-left
  /// corner.
  public var showsScaleBar: Bool
  /// The last info window picture made (one is open at a time).
  var infoWindowCache: (key: InfoWindowKey, picture: OverlayPicture)?
  /// The last attribution picture made, with its text, width limit and scale.
  var attributionCache: (key: String, image: RGBAImage?)?
  /// Glyphs of the pictures drawn over the map (info windows, attribution, scale bar).
  lazy var overlayGlyphs = GlyphStore(loader: nil, fonts: FontLibraries.library(folders: styleSettings.fontFolders))
  /// When false, snapshots list the visible markers as accessibility elements (the SDK's
  /// `accessibilityElementsHidden`, default true).
  public var accessibilityElementsHidden = true
  /// Progress (0…1) of the markers' appear animations in the next snapshot; 1 shows them
  /// finished.
  public var markerAppearProgress = 1.0
  let executor: FrameExecutor
  /// The style renderer whose first frame has been drawn (its pipelines made).
  private weak var warmedUpRenderer: StyleRenderer?
  /// How many markers, overlays and overlay points the map may be given (``MapOptions``).
  public var contentLimits: ContentLimits
  /// Checked between the phases of a frame and inside long loops (building overlays, building
  /// buckets): once cancelled, drawing stops with ``RenderCancelledError``.
  public var cancellation: RenderCancellation? {
    didSet {
      styleRenderer?.cancellation.cancellation = cancellation
      overlayLayer.renderer?.cancellation.cancellation = cancellation
    }
  }
  /// Tiles of the first frame, loading since before the map was made (``MapPreparation``).
  private var firstTiles: PendingTiles?

  /// Makes the map `preparation` describes, drawing with `device`: every map is made here. Its
  /// first frame uses the tiles the preparation loaded (when the camera has not changed since).
  public init(preparation: MapPreparation, device: GLDevice) throws {
    let options = preparation.options
    state = preparation.state
    backgroundColor = options.backgroundColor
    skyColor = options.skyColor
    showsTileGrid = options.showsTileGrid
    self.device = device
    executor = FrameExecutor(device: device, samples: options.samples, cacheBudget: options.gpuCacheBytes)
    tileLoader = preparation.tileLoader
    styleSettings = StyleSettings(options)
    markerLayer = MarkerLayerState(resources: executor.resources)
    content = preparation.content
    data = options.data
    buildingsEnabled = options.buildingsEnabled
    traffic = options.traffic
    mapStyle = options.mapStyle
    indoorDisplay = options.indoor
    styleRenderer = preparation.styleRenderer
    firstTiles = preparation.firstTiles
    attribution = options.attribution
    showsScaleBar = options.showsScaleBar
    contentLimits = options.contentLimits
    device.releaseContext()
  }

  /// Makes the map `preparation` describes on a new device for `gpu` (see ``GPUSelection``).
  public convenience init(preparation: MapPreparation, gpu: GPUSelection = .auto) throws {
    try self.init(preparation: preparation, device: try GLDevice(gpu: gpu))
  }

  /// Makes a map drawing with `device`; throws for an invalid view size, scale or padding, an
  /// unsupported sample count, or a map type whose data cannot be opened. Maps on several
  /// threads can share one `tileLoader` (and so its cache of decoded tiles); by default the map
  /// gets its own, holding ``MapOptions/tileCacheBytes``.
  public convenience init(options: MapOptions, device: GLDevice, tileLoader: TileLoader? = nil) throws {
    try self.init(preparation: MapPreparation(options: options, tileLoader: tileLoader), device: device)
  }

  /// Makes a map on a new device for `gpu` (see ``GPUSelection``). EGL starts up on another
  /// thread while the style is read and the first frame's tiles load (``MapPreparation``).
  public convenience init(options: MapOptions, gpu: GPUSelection = .auto) throws {
    let (preparation, device) = try MapPreparation.startUp(gpu: gpu) { try MapPreparation(options: options) }
    try self.init(preparation: preparation, device: device)
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

  /// Screen lines (points) no label may cross: set by ``TileRenderer`` on frames it cuts into
  /// tiles, so that a label is drawn whole or not at all. Nil (the default): no cuts.
  package var tileCuts: TileCuts?

  /// Whether labels along lines show the circles they collide with, blue when placed and red
  /// when not (MapLibre's collision debug). Off by default.
  public var showsCollisionCircles = false

  /// Whether rotated and tilted views clip tiles with clip planes in the tile programs (the
  /// default where the device has `GL_EXT_clip_cull_distance`) rather than with stencil masks;
  /// set false to compare. Setting true on a device without clip planes changes nothing.
  public var clipsTilesByPlanes: Bool {
    get { executor.resources.clipsTilesByPlanes }
    set { executor.resources.clipsTilesByPlanes = newValue && device.info.limits.clipsTilesByPlanes }
  }

  /// What a frame draws, bottom first: the style's layers, the overlays, the debug tile grid,
  /// the sky and the markers. `prepared` supplies the style's tiles for its first frame.
  func frameLayers(prepared: StyleRenderer.PreparedTiles? = nil) -> [any FrameLayer] {
    var layers: [any FrameLayer] = []
    if let styleRenderer {
      layers.append(
        styleRenderer.frameLayer(
          prepared: prepared, tileCuts: tileCuts, showsCollisionCircles: showsCollisionCircles))
    }
    if let overlays = overlayLayer.renderer { layers.append(overlays.frameLayer()) }
    if showsTileGrid { layers.append(DebugTileGrid()) }
    layers.append(SkyLayer(skyColor: skyColor))
    layers.append(MarkerFrameLayer(markers: markerLayer, appear: markerAppearProgress))
    return layers
  }

  /// The plan of the next frame and what preparing it found (no drawing): its layers composed
  /// into one list of draws, with tile geometry and textures uploaded.
  package func composeFrame() throws -> FrameComposer.Frame {
    try cancellation?.check()
    let markers = markerLayer.markers.count
    guard markers <= contentLimits.markers else {
      throw ContentLimitError(what: "markers", count: markers, limit: contentLimits.markers)
    }
    try MarkerValidation.check(markerLayer.markers)
    try updateOverlayRenderer()
    try cancellation?.check()
    let transform = state.transform
    let prepared = try styleRenderer.flatMap { try firstFramePreparation($0, transform: transform) }
    try cancellation?.check()
    return try FrameComposer.compose(
      frameLayers(prepared: prepared), transform: transform, background: backgroundColor,
      resources: executor.resources)
  }

  /// Draws the map and reads the pixels back (straight alpha unless `alpha` says otherwise).
  ///
  /// Waits for every tile the camera needs; tiles that fail are reported in the snapshot's
  /// warnings and drawn from an ancestor when one loads.
  public func snapshot(alpha: AlphaRepresentation = .straight) throws -> Snapshot {
    defer { device.releaseContext() }
    var statistics = FrameStatistics()
    let start = DispatchTime.now()
    let frame = try composeFrame()
    let preparation = frame.statistics
    statistics.tiles = preparation.tiles
    statistics.bucketsBuilt = preparation.bucketsBuilt
    statistics.tileWaitMilliseconds = preparation.timings.tileWait
    statistics.tileDecodeMilliseconds = preparation.timings.tileDecode
    statistics.tessellationMilliseconds = preparation.timings.tessellation
    statistics.uploadMilliseconds = preparation.timings.upload
    statistics.commandPlanningMilliseconds = preparation.timings.commandPlanning
    statistics.textShapingMilliseconds = preparation.timings.textShaping
    statistics.textCollisionMilliseconds = preparation.timings.textCollision
    statistics.textQuadsMilliseconds = preparation.timings.textQuads
    let planned = DispatchTime.now()
    try cancellation?.check()
    device.resetStatistics()
    try executor.execute(frame.plan)
    let encoded = DispatchTime.now()
    device.finish()
    let drawn = DispatchTime.now()
    var image = try executor.readPixels(alpha: alpha)
    drawOrnaments(onto: &image)
    let read = DispatchTime.now()
    statistics.drawCalls = device.statistics.drawCalls
    statistics.triangles = device.statistics.triangles
    statistics.planMilliseconds = milliseconds(start, planned)
    statistics.commandEncodingMilliseconds = milliseconds(planned, encoded)
    statistics.drawMilliseconds = milliseconds(encoded, drawn)
    statistics.readbackMilliseconds = milliseconds(drawn, read)
    return Snapshot(
      image: image, statistics: statistics,
      warnings: frame.warnings + overlayGlyphs.takeNewWarnings() + PinLabel.glyphs.takeNewWarnings()
        + [infoWindowOverflowWarning()].compactMap { $0 },
      accessibilityElements: accessibilityElementsHidden
        ? []
        : [indoorAccessibilityElement()].compactMap { $0 } + overlayAccessibilityElements()
          + markerAccessibilityElements() + [infoWindowAccessibilityElement()].compactMap { $0 })
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
      ?? PendingTiles(renderer: renderer, transform: transform, cachedTextures: executor.resources.textureKeys)
    let viewport = transform.viewport
    do {
      try executor.warmUp(
        FrameComposer.expectedPipelines(
          frameLayers(), transform: transform, clipsByPlanes: executor.resources.clipsTilesByPlanes),
        pixelWidth: viewport.pixelWidth,
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
}

/// Milliseconds between two instants.
func milliseconds(_ from: DispatchTime, _ to: DispatchTime) -> Double {
  Double(to.uptimeNanoseconds - from.uptimeNanoseconds) / 1e6
}

extension Map {
  /// The local font files whose glyphs the map has drawn so far (labels of styles without
  /// glyph PBFs, info windows, attribution, the scale bar, Static Maps pin labels): what its
  /// images depend on besides the data. Snapshot tests record them with their references.
  public var fontFacesUsed: [FontFace] {
    var faces = styleRenderer?.glyphs.fontFacesUsed ?? []
    faces += overlayLayer.renderer?.glyphs.fontFacesUsed ?? []
    faces += overlayGlyphs.fontFacesUsed
    let pinLabels = Set(markerLayer.markers.compactMap { $0.icon?.drawnText })
    faces += pinLabels.sorted().flatMap(PinLabel.fontFaces)
    var seen = Set<String>()
    return faces.filter { seen.insert("\($0.path)#\($0.index)").inserted }
  }
}
