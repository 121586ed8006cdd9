import Foundation
import Synchronization
import TesseraData
import TesseraNumbers
import TesseraRender
import TesseraStyle
import TesseraText

/// A map type that cannot be drawn with the data given.
public struct MapTypeError: Error, Equatable, CustomStringConvertible {
  public let mapType: MapType
  public let reason: String

  public var description: String { "map type \(mapType.rawValue): \(reason)" }
}

extension Map {
  /// Draws a built-in map type (`mapType` and `overrideUserInterfaceStyle` in the SDK) over
  /// `data` (the map's current data when nil). Satellite and hybrid need imagery, terrain a
  /// DEM; throws when it is missing or a source cannot be opened.
  public func setMapType(_ type: MapType, colorScheme: ColorScheme = .light, data: MapData? = nil) throws {
    let data = data ?? self.data
    let tileGeneration = tileLoader.cache.generation
    let built = try StyleBuilder.mapType(
      type, colorScheme: colorScheme, data: data, buildings3D: buildingsEnabled, settings: styleSettings,
      mapStyle: mapStyle, indoor: indoorDisplay)
    try install(
      built.style, name: built.name, binder: built.binder, tileGeneration: tileGeneration, images: built.images,
      traffic: type == .none ? nil : traffic)
    self.data = data
    content = .mapType(type, colorScheme)
  }

  /// Draws a MapLibre style; its relative source URLs resolve against `dataRoot` and
  /// `local://` URLs against `localRoot`. Throws when a source cannot be opened (unless
  /// ``MapOptions/skipsUnusableSources``: then its layers draw nothing and a warning says why).
  public func setStyle(_ style: Style, name: String, dataRoot: String, localRoot: String? = nil) throws {
    try install(
      style, name: name,
      binder: StyleBuilder.binder(dataRoot: dataRoot, localRoot: localRoot, settings: styleSettings),
      tileGeneration: tileLoader.cache.generation, traffic: traffic)
    content = .style(name: name, dataRoot: dataRoot)
  }

  /// Reads a style file and draws it (relative URLs against `dataRoot`, by default the file's folder).
  public func loadStyle(path: String, dataRoot: String? = nil, localRoot: String? = nil) throws {
    let style = try Style.load(path: path)
    try setStyle(
      style, name: path, dataRoot: dataRoot ?? (path as NSString).deletingLastPathComponent, localRoot: localRoot)
  }

  /// `trafficEnabled` with the application's traffic data (``TrafficLayer``); nil: none.
  /// Setting it redraws the current map type or style with the traffic under its labels
  /// (never over map type `none`); throws when the traffic data cannot be opened.
  public func setTraffic(_ traffic: TrafficLayer?) throws {
    let previous = self.traffic
    self.traffic = traffic
    do {
      switch content {
      case .mapType(let type, let scheme): try setMapType(type, colorScheme: scheme)
      case .style(let name, let dataRoot): try loadStyle(path: name, dataRoot: dataRoot)
      }
    } catch {
      self.traffic = previous
      throw error
    }
  }

  /// The warnings of the current style (unknown properties, layers not drawn).
  public var styleWarnings: [String] { styleRenderer?.warnings ?? [] }

  private func install(
    _ style: Style, name: String, binder: StyleSourceBinder, tileGeneration: Int,
    images: [String: SpriteImage] = [:], traffic: TrafficLayer?
  ) throws {
    styleRenderer = try StyleBuilder.renderer(
      try TrafficStyle.adding(traffic, to: style), name: name, binder: binder, loader: tileLoader,
      tileGeneration: tileGeneration, settings: styleSettings, images: images)
  }
}

/// How a map makes its style renderers: what its options say about sources and frames.
struct StyleSettings: Sendable {
  /// How HTTP sources fetch.
  let http: HTTPTileSource.Options
  /// Seconds a frame waits for its tiles.
  let loadTimeout: Double
  /// What one frame may hold.
  let limits: FrameLimits
  /// Whether a source that cannot be opened is left out with a warning rather than an error.
  let skipsUnusableSources: Bool
  /// Device pixels per point (chooses `@2x` sprites above 1).
  let pixelRatio: Double
  /// Folders of font files searched before the system's.
  let fontFolders: [String]
  /// The language of the built-in map types' labels (`name:xx`), or nil for local names.
  let language: String?

  init(_ options: MapOptions) {
    http = options.http
    loadTimeout = options.tileLoadTimeout
    limits = options.frameLimits
    skipsUnusableSources = options.skipsUnusableSources
    pixelRatio = options.scale
    fontFolders = options.fontFolders
    language = options.language
  }
}

/// Makes the style renderers of map types and style files (shared by ``Map`` and
/// ``MapPreparation``, which makes one before the map exists).
enum StyleBuilder {
  /// The style document of a built-in map type over `data`, and the binder of its sources.
  /// Google styling (`mapStyle`) changes the document before it is parsed; its warnings join
  /// the style's.
  static func mapType(
    _ type: MapType, colorScheme: ColorScheme, data: MapData, buildings3D: Bool, settings: StyleSettings,
    mapStyle: MapStyle? = nil, indoor: IndoorDisplay? = nil
  ) throws -> (style: Style, name: String, binder: StyleSourceBinder, images: [String: SpriteImage]) {
    let locator = TileSourceLocator(dataRoot: data.dataRoot, httpOptions: settings.http)
    var raster = BuiltinStyle.RasterSettings()
    if type == .satellite || type == .hybrid {
      guard let imagery = data.imagery else {
        throw MapTypeError(mapType: type, reason: "needs an imagery source (--imagery)")
      }
      raster.imageryTileSize = try locator.open(imagery).metadata.tileSize ?? 256
    }
    if type == .terrain {
      guard let dem = data.dem else { throw MapTypeError(mapType: type, reason: "needs a DEM source (--dem)") }
      let metadata = try locator.open(dem).metadata
      raster.demTileSize = metadata.tileSize ?? 256
      raster.demEncoding = metadata.encoding?.rawValue ?? "mapbox"
    }
    var document = BuiltinStyle.document(
      type, scheme: colorScheme, data: data, raster: raster, buildings3D: buildings3D, language: settings.language)
    if type != .none && type != .satellite {
      document = IndoorStyle.adding(
        indoor, to: document, dark: colorScheme == .dark, language: settings.language)
    }
    var warnings: [String] = []
    if let mapStyle, !mapStyle.rules.isEmpty {
      (document, warnings) = GoogleStyleApplier(style: mapStyle).apply(to: document)
    }
    let name = "map type \(type.rawValue)"
    var style = try Style.parse(document, source: name)
    style.warnings += warnings
    let images = type == .none || type == .satellite ? [:] : BuiltinIcons.images(pixelRatio: settings.pixelRatio)
    return (style, name, StyleSourceBinder(locator: locator), images)
  }

  /// The binder of a style whose relative URLs resolve against `dataRoot` and `local://`
  /// URLs against `localRoot`.
  static func binder(dataRoot: String, localRoot: String?, settings: StyleSettings) -> StyleSourceBinder {
    var binder = StyleSourceBinder(
      locator: TileSourceLocator(dataRoot: dataRoot, httpOptions: settings.http), localRoot: localRoot)
    binder.skipsUnusableSources = settings.skipsUnusableSources
    return binder
  }

  /// A renderer of `style` with its sources bound, loading tiles with `loader`; `images` join
  /// the style's sprites (built-in icons); `prebound` sources are used as given (pictures held
  /// in memory) instead of being opened. `tileGeneration` is the loader's cache generation
  /// noted before any of the sources was opened (``StyleRenderer/tileGeneration``; the map
  /// types open theirs in `mapType`, before this).
  static func renderer(
    _ style: Style, name: String, binder: StyleSourceBinder, loader: TileLoader, tileGeneration: Int,
    settings: StyleSettings, images: [String: SpriteImage] = [:], prebound: [String: RenderSource] = [:]
  ) throws -> StyleRenderer {
    var unbound = style
    for id in prebound.keys { unbound.sources[id] = nil }
    var bound = try binder.bind(unbound, name: name)
    bound.sources.merge(prebound) { _, given in given }
    // Local fonts draw the labels of styles without glyph PBFs, and in styles with them the
    // characters the PBFs lack (emoji, scripts of no range file); they are scanned only when
    // a label first needs them.
    let fonts: FontLibrary? = FontLibraries.library(folders: settings.fontFolders)
    // (Only the map's own folders are checked: looking scans the fonts, which otherwise waits
    // for the first label that needs them.)
    if !settings.fontFolders.isEmpty,
      let unreadable = fonts?.unreadableFiles.first(where: { file in
        settings.fontFolders.contains { file.source.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
      })
    {
      // A font the map was given that cannot be read is an error (system fonts are skipped).
      throw unreadable
    }
    let sprites = binder.loadSprites(style, pixelRatio: settings.pixelRatio)
    return StyleRenderer(
      style: style, name: name, sources: bound.sources, loader: loader, loadTimeout: settings.loadTimeout,
      limits: settings.limits, sourceProblems: bound.problems + sprites.problems,
      images: sprites.images.merging(images) { sprite, _ in sprite },
      glyphs: binder.glyphStore(style, fonts: fonts), tileGeneration: tileGeneration)
  }
}

/// Font libraries shared by the maps of a process: the system's, and one per list of extra
/// folders (scanned once).
enum FontLibraries {
  private static let made = Mutex<[[String]: FontLibrary]>([:])

  /// The library of `folders` (each searched before the system's fonts); the system's alone
  /// when empty.
  static func library(folders: [String]) -> FontLibrary {
    guard !folders.isEmpty else { return .system }
    return made.withLock { libraries in
      if let known = libraries[folders] { return known }
      let library = FontLibrary(folders: folders + FontLibrary.systemFolders)
      libraries[folders] = library
      return library
    }
  }
}
