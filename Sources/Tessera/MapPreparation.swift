import Dispatch
import Foundation
import Synchronization
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraNumbers
import TesseraRender
import TesseraStyle

/// The part of making a map that needs no GPU, done before its GL device exists: the camera
/// state worked out, the style read and its sources opened, and the first frame's tiles
/// loading and tessellating on other threads. Every ``Map`` is made from one
/// (``Map/init(preparation:device:)``); made while EGL starts up (loading the driver takes tens
/// of milliseconds; see `HeadlessDisplay.startOpening`), it lets that start-up overlap the
/// style's reading and the tile work.
public final class MapPreparation {
  /// A device for `gpu` and the preparation `prepare` makes, with EGL starting on another
  /// thread meanwhile. Also on two cores, where the tile work competes with EGL's start-up
  /// for the second core: reading a large style there (10–17 ms for Liberty) no longer waits
  /// for the driver, and smaller ones lose nothing measurable (docs/performance.md).
  public static func startUp(gpu: GPUSelection, _ prepare: () throws -> MapPreparation) throws
    -> (MapPreparation, GLDevice)
  {
    HeadlessDisplay.startOpening(gpu)
    let preparation = try prepare()
    return (preparation, try GLDevice(gpu: gpu))
  }

  /// The options of the map (their camera as given; ``state`` has the updates applied).
  public let options: MapOptions
  /// The camera state the first frame shows.
  public let state: MapState
  let tileLoader: TileLoader
  let styleRenderer: StyleRenderer?
  let content: MapContent
  /// The first frame's tiles, loading (nil when nothing is drawn from tiles).
  let firstTiles: PendingTiles?

  /// Prepares a map of `options` with `updates` applied to its camera, drawing the style file
  /// at `stylePath` (relative URLs against `dataRoot`, by default the file's folder) or else
  /// the options' map type. Maps sharing a `tileLoader` share its cache of decoded tiles; by
  /// default the map gets its own, holding ``MapOptions/tileCacheBytes``.
  public init(
    options: MapOptions, updates: [CameraUpdate] = [], stylePath: String? = nil, dataRoot: String? = nil,
    tileLoader: TileLoader? = nil
  ) throws {
    guard options.samples == 1 || options.samples == 4 else {
      throw GLError.unsupportedSamples(requested: options.samples, maximum: 4)
    }
    guard options.tileLoadTimeout.isFinite, options.tileLoadTimeout >= 0, options.tileLoadTimeout <= 3600 else {
      throw GeoError.outOfRange(field: "tile load timeout", value: options.tileLoadTimeout, allowed: "0…3600 seconds")
    }
    guard options.frameLimits.geometryBytes > 0, options.frameLimits.draws > 0 else {
      throw GeoError.outOfRange(
        field: "frame limits", value: Double(min(options.frameLimits.geometryBytes, options.frameLimits.draws)),
        allowed: "geometry bytes and draws above 0")
    }
    var options = options
    var stylePath = stylePath
    var dataRoot = dataRoot
    if let id = options.mapID, stylePath == nil {
      guard let registry = options.mapIDs else {
        throw MapIDError(
          source: "map ID '\(id)'", reason: "no map IDs are declared (mapIDs: a styles folder or config file)")
      }
      switch try registry.look(id, colorScheme: options.colorScheme) {
      case .style(let path):
        stylePath = path
      case .mapType(let type, let style):
        options.mapType = type
        // The ID's styling, then the map's own rules.
        let rules = (style?.rules ?? []) + (options.mapStyle?.rules ?? [])
        options.mapStyle = rules.isEmpty ? nil : MapStyle(rules: rules)
        dataRoot = nil
      }
    }
    state = try options.mapState(applying: updates)
    let tileLoader = tileLoader ?? TileLoader(cache: TileCache(budget: options.tileCacheBytes))
    self.tileLoader = tileLoader
    // Noted before any source is opened: tiles read through them after the cache is emptied
    // (their files may have been replaced) are not cached.
    let tileGeneration = tileLoader.cache.generation
    let settings = StyleSettings(options)
    if let stylePath {
      let style = try TrafficStyle.adding(options.traffic, to: try Style.load(path: stylePath))
      let root = dataRoot ?? (stylePath as NSString).deletingLastPathComponent
      styleRenderer = try StyleBuilder.renderer(
        style, name: stylePath, binder: StyleBuilder.binder(dataRoot: root, localRoot: nil, settings: settings),
        loader: tileLoader, tileGeneration: tileGeneration, settings: settings)
      content = .style(name: stylePath, dataRoot: root)
      options.mapType = .none
    } else if options.mapType != .none {
      let built = try StyleBuilder.mapType(
        options.mapType, colorScheme: options.colorScheme, data: options.data, buildings3D: options.buildingsEnabled,
        settings: settings, mapStyle: options.mapStyle, indoor: options.indoor)
      styleRenderer = try StyleBuilder.renderer(
        try TrafficStyle.adding(options.traffic, to: built.style), name: built.name, binder: built.binder,
        loader: tileLoader, tileGeneration: tileGeneration, settings: settings, images: built.images)
      content = .mapType(options.mapType, options.colorScheme)
    } else {
      styleRenderer = nil
      content = .mapType(.none, options.colorScheme)
    }
    self.options = options
    let transform = state.transform
    firstTiles = styleRenderer.map { PendingTiles(renderer: $0, transform: transform) }
    let ornamentTexts =
      [MapOrnaments.attributionText(options.attribution, styleRenderer: styleRenderer)].compactMap { $0 }
      + (options.showsScaleBar ? [MapOrnaments.scaleBarCharacters] : [])
    MapOrnaments.prepareGlyphs(of: ornamentTexts, fontFolders: options.fontFolders)
  }

  /// Prepares the map a scene describes (its style or map type, its camera after its updates).
  public convenience init(scene: Scene, tileLoader: TileLoader? = nil) throws {
    try self.init(
      options: scene.options, updates: scene.updates, stylePath: scene.stylePath, dataRoot: scene.dataRoot,
      tileLoader: tileLoader)
  }
}

/// A style renderer's tiles for one camera, loaded and tessellated on other threads for a style's
/// first frame, leaving one core to the rendering thread until it waits for them
/// (``ParallelWork/reservation``).
final class PendingTiles: Sendable {
  let renderer: StyleRenderer
  let transform: CameraTransform
  private let result = Mutex<StyleRenderer.PreparedTiles?>(nil)
  private let done = DispatchGroup()
  /// The core the rendering thread holds while it opens the device and makes the frame's
  /// pipelines.
  private let renderingCore = CoreReservation()

  /// Starts preparing at once; textures under `cachedTextures` (on the map's GPU already) are
  /// not made again.
  init(renderer: StyleRenderer, transform: CameraTransform, cachedTextures: Set<ResourceKey> = []) {
    self.renderer = renderer
    self.transform = transform
    done.enter()
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      let prepared = ParallelWork.$reservation.withValue(renderingCore) {
        renderer.prepareTiles(transform: transform, cachedTextures: cachedTextures)
      }
      result.withLock { $0 = prepared }
      done.leave()
    }
  }

  /// Whether the tiles are ready.
  var isReady: Bool { result.withLock { $0 != nil } }

  /// Waits for the tiles, giving the preparation the core the waiting thread held.
  func wait() -> StyleRenderer.PreparedTiles {
    renderingCore.release()
    done.wait()
    return result.withLock { $0! }
  }
}
