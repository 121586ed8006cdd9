import TesseraData
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraRender

/// How a ``Map`` is set up: Google's `GMSMapViewOptions` plus headless rendering settings.
public struct MapOptions: Sendable, Equatable {
  /// View width in points.
  public var width: Double
  /// View height in points.
  public var height: Double
  /// Pixels per point (output pixels = points × scale).
  public var scale: Double
  /// The camera (clamped to ``limits`` and ``cameraTargetBounds`` when the map applies it).
  public var camera: Camera
  /// Padding: shifts the visual centre and shrinks the visible region.
  public var padding: EdgeInsets
  /// Zoom range and tilt cap.
  public var limits: CameraLimits
  /// When set, the camera target is kept inside these bounds.
  public var cameraTargetBounds: CoordinateBounds?
  /// Shown where nothing is drawn; default UIKit `lightGray` (rgb 170, 170, 170) as in the SDK.
  public var backgroundColor: Color
  /// The sky above the horizon, seen only with a raised tilt cap (default a light blue).
  public var skyColor: Color
  /// Whether to draw the debug tile grid (tile borders and a checkerboard).
  public var showsTileGrid: Bool
  /// Samples per pixel: 1 (none) or 4 (4× MSAA, resolved before readback).
  public var samples: Int
  /// The built-in map type drawn (until a style is set); `normal` as in the SDK.
  public var mapType: MapType
  /// The colour scheme of the normal and terrain types.
  public var colorScheme: ColorScheme
  /// `buildingsEnabled`: 3D buildings in the normal and terrain types from zoom 16 (flat
  /// footprints below, and always when off).
  public var buildingsEnabled = true
  /// A map ID (`GMSMapViewOptions.mapID`) resolved through ``mapIDs``: it replaces the map type
  /// (and its styling) or names a MapLibre style.
  public var mapID: String?
  /// Where map IDs are declared.
  public var mapIDs: MapIDRegistry?
  /// Google styling of the built-in map types (GMSMapStyle); nil: their own look. Ignored by
  /// MapLibre styles.
  public var mapStyle: MapStyle?
  /// `trafficEnabled` with the application's traffic data; nil: no traffic. Not drawn over map
  /// type `none`, as in the SDK.
  public var traffic: TrafficLayer?
  /// A venue's floor plan at its active level (`indoorDisplay`); nil: none.
  public var indoor: IndoorDisplay?
  /// The data the map types draw (the synthetic demo city unless set).
  public var data: MapData
  /// Bytes of tile geometry and textures kept on the GPU between frames (least recently used
  /// dropped first; one frame may exceed it).
  public var gpuCacheBytes: Int = 512 << 20
  /// Bytes of decoded tiles kept in memory between frames.
  public var tileCacheBytes: Int = 256 << 20
  /// Seconds a frame waits for its tiles, over all sources and their fallback ancestors: a
  /// source that does not answer delays a frame this long at most (its tiles are then left
  /// out, with a warning).
  public var tileLoadTimeout: Double = 30
  /// How much tile geometry and how many draws one frame may hold; a frame needing more fails
  /// with ``FrameLimitError`` (the default, 1 GiB and 1,000,000 draws, holds every ordinary
  /// style at any view size Tessera renders).
  public var frameLimits = FrameLimits()
  /// How many markers, overlays and overlay points the map may be given; more is refused with
  /// ``ContentLimitError``.
  public var contentLimits = ContentLimits()
  /// Whether a style source that cannot be opened (a missing file, GeoJSON that is not
  /// GeoJSON) is left out with a warning, its layers drawing nothing, as MapLibre does, rather
  /// than failing the style.
  public var skipsUnusableSources = false
  /// How HTTP sources fetch (timeouts, retries, a disk cache, the circuit breaker).
  public var http = HTTPTileSource.Options()
  /// Folders of font files (.ttf, .otf, .ttc) labels of styles without a `glyphs` URL are
  /// drawn with, searched before the system's fonts (which stay the fallback).
  public var fontFolders: [String] = []
  /// The language of the built-in map types' labels, as the Static Maps API's `language=`: a
  /// code such as `fa`, `zh` or `pt-BR` picks each feature's `name:xx` (falling back to
  /// `name_int`, `name_en`, `name`); nil draws local names. See ``isLanguageCode(_:)``.
  public var language: String?
  /// What the bottom-right corner credits: the sources' attribution by default.
  public var attribution = Attribution.sources
  /// Whether a scale bar shows in the bottom-left corner (`--scale-bar`).
  public var showsScaleBar = false

  /// Whether `code` can name a label language: 2 or 3 letters, optionally followed by `-` or
  /// `_` and a 2–8 character subtag (`fa`, `zh-Hans`, `pt_BR`).
  public static func isLanguageCode(_ code: String) -> Bool {
    let parts = code.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).flatMap {
      $0.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
    }
    guard parts.count <= 2, let primary = parts.first, (2...3).contains(primary.count),
      primary.allSatisfy({ $0.isASCII && $0.isLetter })
    else { return false }
    if parts.count == 2 {
      let subtag = parts[1]
      return (2...8).contains(subtag.count) && subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
    return true
  }

  /// The default camera: latitude 0, longitude 0, zoom 1 (the SDK leaves its default unstated).
  public static let defaultCamera = try! Camera(latitude: 0, longitude: 0, zoom: 1)
  /// The default sky colour, rgb(158, 200, 238).
  public static let defaultSkyColor = Color(r: 158, g: 200, b: 238)

  /// Makes options for a view of `width` × `height` points.
  public init(
    width: Double = 512, height: Double = 512, scale: Double = 1, camera: Camera = MapOptions.defaultCamera,
    padding: EdgeInsets = .zero, limits: CameraLimits = .default, cameraTargetBounds: CoordinateBounds? = nil,
    backgroundColor: Color = .lightGray, skyColor: Color = MapOptions.defaultSkyColor, showsTileGrid: Bool = false,
    samples: Int = 1, mapType: MapType = .normal, colorScheme: ColorScheme = .light, data: MapData = MapData()
  ) {
    self.width = width
    self.height = height
    self.scale = scale
    self.camera = camera
    self.padding = padding
    self.limits = limits
    self.cameraTargetBounds = cameraTargetBounds
    self.backgroundColor = backgroundColor
    self.skyColor = skyColor
    self.showsTileGrid = showsTileGrid
    self.samples = samples
    self.mapType = mapType
    self.colorScheme = colorScheme
    self.data = data
  }

  /// The viewport these options describe; throws for a non-positive size or scale or bad padding.
  public func viewport() throws(GeoError) -> Viewport {
    try Viewport(width: width, height: height, scale: scale, padding: padding)
  }

  /// The camera state these options describe, after `updates` applied in order as
  /// ``Map/moveCamera(_:)`` applies them: the one place a map's starting camera is worked out
  /// (maps, preparations, scenes, the command line and render pools all come here).
  /// Throws for a fit whose padding leaves no room in the view.
  public func mapState(applying updates: [CameraUpdate] = []) throws(GeoError) -> MapState {
    var state = MapState(
      camera: camera, viewport: try viewport(), limits: limits, cameraTargetBounds: cameraTargetBounds)
    for update in updates {
      guard state.canApply(update) else {
        throw GeoError.invalidViewport(
          reason: "a fit update's padding leaves no room in the \(width)x\(height)-point view")
      }
      state.move(update)
    }
    return state
  }
}
