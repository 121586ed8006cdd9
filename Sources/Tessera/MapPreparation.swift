import Dispatch
import Foundation
import Synchronization
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraRender
import TesseraStyle

/// The part of making a map that needs no GPU, done before its GL device exists: the style
/// read and its sources opened, and the first frame's tiles loading and tessellating on other
/// threads. Made while EGL starts up (loading the driver takes tens of milliseconds; see
/// `HeadlessDisplay.startOpening`), it lets that start-up overlap the tile work;
/// ``Map/init(preparation:device:)`` adopts it.
public final class MapPreparation {
  /// Whether maps made for a GPU selection start EGL on another thread while the preparation
  /// runs: only with more than two cores. EGL start-up is CPU work (loading and initialising
  /// the driver), so on two cores it competes with the tessellation instead of hiding behind
  /// it (measured on llvmpipe: no gain for a flat view, 14 ms lost on a tilted one).
  public static var overlapsDeviceStartUp: Bool { ProcessInfo.processInfo.activeProcessorCount > 2 }

  /// A device for `gpu` and the preparation `prepare` makes: with EGL starting on another
  /// thread meanwhile when ``overlapsDeviceStartUp``, else the device first (the preparation's
  /// tiles then load while the map is made and its pipelines compiled).
  static func startUp(gpu: GPUSelection, _ prepare: () throws -> MapPreparation) throws
    -> (MapPreparation, GLDevice)
  {
    guard overlapsDeviceStartUp else {
      let device = try GLDevice(gpu: gpu)
      return (try prepare(), device)
    }
    HeadlessDisplay.startOpening(gpu)
    let preparation = try prepare()
    return (preparation, try GLDevice(gpu: gpu))
  }

  /// The options of the map, its camera as the first frame shows it.
  public let options: MapOptions
  let tileLoader: TileLoader
  let styleRenderer: StyleRenderer?
  let content: MapContent
  /// The first frame's tiles, loading (nil when nothing is drawn from tiles).
  let firstTiles: PendingTiles?

  /// Prepares a map of `options`, drawing the style file at `stylePath` (relative URLs against
  /// `dataRoot`, by default the file's folder) or else the options' map type.
  public init(options: MapOptions, stylePath: String? = nil, dataRoot: String? = nil) throws {
    var options = options
    tileLoader = TileLoader(cache: TileCache(budget: options.tileCacheBytes))
    if let stylePath {
      let style = try Style.load(path: stylePath)
      let root = dataRoot ?? (stylePath as NSString).deletingLastPathComponent
      styleRenderer = try StyleBuilder.renderer(
        style, name: stylePath, binder: StyleBuilder.binder(dataRoot: root, localRoot: nil), loader: tileLoader)
      content = .style(name: stylePath, dataRoot: root)
      options.mapType = .none
    } else if options.mapType != .none {
      let built = try StyleBuilder.mapType(
        options.mapType, colorScheme: options.colorScheme, data: options.data, buildings3D: options.buildingsEnabled)
      styleRenderer = try StyleBuilder.renderer(
        built.style, name: built.name, binder: built.binder, loader: tileLoader)
      content = .mapType(options.mapType, options.colorScheme)
    } else {
      styleRenderer = nil
      content = .mapType(.none, options.colorScheme)
    }
    self.options = options
    let transform = try options.mapState().transform
    firstTiles = styleRenderer.map { PendingTiles(renderer: $0, transform: transform) }
  }

  /// Prepares the map a scene describes (its style or map type, its camera after its updates).
  public convenience init(scene: Scene) throws {
    var options = scene.options
    var state = try options.mapState()
    for update in scene.updates { state.move(update) }
    options.camera = state.camera
    try self.init(options: options, stylePath: scene.stylePath, dataRoot: scene.dataRoot)
  }
}

/// A style renderer's tiles for one camera, loaded and tessellated on another thread.
final class PendingTiles: Sendable {
  let renderer: StyleRenderer
  let transform: CameraTransform
  private let result = Mutex<StyleRenderer.PreparedTiles?>(nil)
  private let done = DispatchGroup()

  /// Starts preparing at once.
  init(renderer: StyleRenderer, transform: CameraTransform) {
    self.renderer = renderer
    self.transform = transform
    done.enter()
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      let prepared = renderer.prepareTiles(transform: transform)
      result.withLock { $0 = prepared }
      done.leave()
    }
  }

  /// Whether the tiles are ready.
  var isReady: Bool { result.withLock { $0 != nil } }

  /// Waits for the tiles.
  func wait() -> StyleRenderer.PreparedTiles {
    done.wait()
    return result.withLock { $0! }
  }
}
