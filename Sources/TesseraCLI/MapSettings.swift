import Dispatch
import Foundation
import Tessera
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// The map options of a render: a scene file (if any) overridden by command-line flags.
struct MapSettings {
  var options: MapOptions
  var gpu: GPUSelection
  var scene: Scene?
  /// Updates to apply to the map's camera, in order (the scene's, then the flags').
  var updates: [CameraUpdate]
  var warnings: [String]
  /// The style file drawn instead of a map type, with the folder its URLs resolve against.
  var style: (path: String, dataRoot: String)?
  /// `--marker` values, in order.
  var markerSpecs: [String] = []
  /// Where marker pictures may come from (`--icon-host`, `--icon-folder`).
  var icons: IconSources?
  /// `--path`, `--polygon` and `--circle` values, in order.
  var overlaySpecs: [(option: String, value: String)] = []
  /// Scene overlay fields the overlay kinds' flags stand for.
  var overlayFields = JSONObject()
  /// `--my-location`.
  var myLocation: LocationFix?
  /// `--visible` coordinates.
  var visible: [Coordinate] = []
  /// Whether the scene or the flags place the camera; otherwise it is fitted to the content.
  var placesCamera = true
  /// The files and folders the scene's fields and the overlay flags named (an output must not
  /// replace them).
  let reads = ResourceLog()

  /// The options shared by `render` and `bench`: those below and each overlay kind's flag.
  static let cameraOptions: [OptionSpec] =
    sharedOptions + OverlayKindFlags.kindFlags.map { .value($0.syntax.option, repeatable: true) }

  private static let sharedOptions: [OptionSpec] = [
    .value("center"), .value("zoom"), .value("bearing"), .value("tilt"), .value("size"), .value("scale"),
    .value("padding"), .value("background"), .value("gpu"), .flag("msaa"), .flag("tile-grid"),
    .flag("no-tile-grid"), .value("min-zoom"), .value("max-zoom"), .value("max-tilt"), .value("sky"),
    .value("update", repeatable: true), .value("map-type"), .value("color-scheme"), .value("language"), .value("tiles"),
    .value("imagery"), .value("dem"), .value("style"), .value("map-id"), .value("styles-dir"), .value("map-ids"),
    .value("data-root"),
    .flag("buildings"), .flag("no-buildings"), .value("marker", repeatable: true), .value("tile-timeout"),
    .value("icon-host", repeatable: true), .value("icon-folder"),
    .flag("skip-unusable-sources"), .value("fonts", repeatable: true), .value("attribution"), .flag("scale-bar"),
    .value("path", repeatable: true), .value("polygon", repeatable: true), .value("circle", repeatable: true),
    .value("my-location"), .value("traffic"), .value("visible", repeatable: true), .value("indoor"),
    .value("indoor-level"),
    .value("map-style"), .value("google-style", repeatable: true),
  ]

  static let cameraHelp = """
      --center LAT,LNG        camera target in degrees (default 0,0 or the scene's)
      --zoom Z                zoom level; the world is 256·2^Z points wide (default 1)
      --bearing B             degrees clockwise from north (default 0)
      --tilt T                viewing angle from nadir in degrees, clamped to the zoom's maximum
      --size WxH              view size in points (default 512x512)
      --scale S               pixels per point (default 1)
      --padding T,L,B,R       padding in points; the target is drawn at the padded centre
      --background COLOR      CSS colour shown where nothing is drawn (default rgb(170,170,170))
      --min-zoom Z, --max-zoom Z   the map's zoom range (default 0...22)
      --max-tilt DEG          raise the tilt cap up to 85° (default: Google's 30°–65° by zoom)
      --sky COLOR             CSS colour of the sky above the horizon (raised tilt caps only)
      --update UPDATE         apply a camera update after the camera is set (repeatable), e.g.
                              zoomIn, zoomTo:Z, zoomBy:D[@X,Y], target:LAT,LNG[,Z],
                              camera:LAT,LNG,Z[,B,T], scrollBy:X,Y, fit:W,S,E,N[@PADDING|@T,L,B,R]
      --tile-grid, --no-tile-grid  draw (or not) the debug tile grid over the map (default: not)
      --msaa                  4× multisampling, resolved before readback
      --map-type T            normal (default), terrain, satellite, hybrid or none
      --color-scheme S        light (default) or dark, for normal and terrain
      --language xx           label language of the map types (name:xx, then name_int,
                              name_en, name); local names by default
      --buildings, --no-buildings  3D buildings from zoom 16 in normal and terrain (default on;
                              off: flat footprints)
      --tiles SOURCE          OpenMapTiles vector data (default demo://city, the synthetic city):
                              a .mbtiles/.pmtiles file, a {z}/{x}/{y} folder, an http(s)
                              template or TileJSON URL
      --imagery SOURCE        raster imagery for satellite and hybrid
      --dem SOURCE            raster DEM (terrain-RGB or Terrarium) for terrain
      --style FILE            draw a MapLibre style (JSON, spec v8) instead of a map type
      --map-id ID             the look map ID ID names: a MapLibre style or a map type with
                              Google styling (and a dark variant), from --styles-dir/--map-ids
      --styles-dir DIR        map IDs as DIR/ID.json files (default: the working folder)
      --map-ids FILE          map IDs from a config file {"mapIDs": {ID: entry}}
      --marker SPEC           add a marker (repeatable): LAT,LNG[,color=CSS][,icon=PATH][,title=TEXT]
                              [,snippet=TEXT][,anchor=X:Y][,rotation=DEG][,flat][,opacity=O]
                              [,z=N][,appear=pop|fadeIn][,selected][,info-window=PATH]
                              [,info-anchor=X:Y]; text with commas in double quotes
                              (title="Hello, World", \" and \\ inside). `selected` opens its
                              info window (title in bold, snippet below)
      --icon-folder DIR       icon=NAME reads NAME (or NAME.png) inside DIR
      --icon-host URL         icon=URL may fetch under this prefix (repeatable; off by default;
                              public addresses only, 1 MB, 10 s)
      --data-root DIR         relative sources resolve here (default: the working folder; for
                              --style, the style's folder)
      --tile-timeout S        seconds a frame waits for its tiles (default 30); tiles later than
                              that are left out with a warning
      --skip-unusable-sources  draw a style whose source cannot be opened without it (its
                              layers draw nothing; a warning says why) instead of failing
      --path SPEC             a polyline in the Static Maps syntax (repeatable):
                              color:0xRRGGBB[AA]|weight:PX|geodesic:true|LAT,LNG|LAT,LNG…
                              or …|enc:ENCODED; with fillcolor:… a filled polygon
      --polygon SPEC          the same, closed and filled (fillcolor default translucent blue)
      --circle SPEC           LAT,LNG,RADIUS_M[,fill=CSS][,stroke=CSS][,width=PT][,z=N]
      --map-style FILE        Google styling JSON (GMSMapStyle) over the built-in map type
      --google-style RULE     a Static Maps style= rule (repeatable, after --map-style's):
                              feature:road.local|element:geometry|color:0x00ff00|weight:1
      --ground-overlay SPEC   IMAGE,bounds=S:W:N:E or IMAGE,at=LAT:LNG[,zoom=Z][,anchor=X:Y],
                              with [,bearing=DEG][,opacity=X][,z=N] (repeatable)
      --tile-overlay SPEC     TEMPLATE|URL[,opacity=X][,size=PX][,z=N]: raster tiles over the
                              map ({z}/{x}/{y} template, mbtiles://, pmtiles://) (repeatable)
      --heatmap SPEC          FILE.geojson[,radius=PT][,opacity=X][,intensity=X][,weight=PROP]
      --my-location SPEC      LAT,LNG[,accuracy=M][,heading=DEG]: the blue location dot
      --indoor DIR            an IMDF venue folder: its floor plan from zoom 17 (normal, terrain)
      --indoor-level N        the level shown, by ordinal (default 0; or the scene's)
      --traffic SPEC          FILE.geojson or vector tiles[,layer=NAME][,attribute=NAME]:
                              traffic lines by congestion level or speed ratio, under labels
      --visible LAT,LNG|…     without --center/--zoom, also keep these in view (repeatable);
                              without a camera the view fits every marker and overlay
      --attribution A         off, or the text to credit instead of the sources' attribution
                              (default: the sources', bottom right inside the padding)
      --scale-bar             a scale bar (metres and feet at the target), bottom left
      --fonts DIR             a folder of .ttf/.otf/.ttc files for labels of styles without a
                              glyphs URL, searched before the system's fonts (repeatable)
      --gpu SEL               auto (default: first hardware EGL device, else surfaceless),
                              surfaceless, software, device:N, gbm[:/dev/dri/renderDN]
    """

  /// Reads `--scene` (when `scenePath` is given) and applies the flags on top; the scene's
  /// warnings (unknown fields, misspellings) go to `console` as `tessera COMMAND: warning: …`,
  /// the same for every command that reads a scene.
  init(_ arguments: ParsedArguments, scenePath: String?, command: String, console: Console) throws {
    try self.init(arguments, scenePath: scenePath)
    for warning in warnings { console.printError("tessera \(command): warning: \(warning)") }
  }

  /// Reads `--scene` and applies the flags (warnings kept in ``warnings``).
  private init(_ arguments: ParsedArguments, scenePath: String?) throws {
    warnings = []
    updates = []
    if let given = scenePath {
      // Absolute, so a scene named without a folder (`case.json`) resolves its relative
      // references against the working folder it is in.
      let scenePath = Scene.absolutePath(given, against: FileManager.default.currentDirectoryPath)
      let scene = try Scene.load(
        path: scenePath, access: .local(directory: (scenePath as NSString).deletingLastPathComponent, log: reads))
      self.scene = scene
      options = scene.options
      updates = scene.updates
      warnings += scene.warnings
    } else {
      options = MapOptions()
    }
    gpu = try arguments.value("gpu").map(ValueParsers.gpu) ?? .auto
    var limits = options.limits
    do {
      if arguments.value("min-zoom") != nil || arguments.value("max-zoom") != nil {
        try limits.setZoomRange(
          min: try arguments.value("min-zoom").map { text throws(UsageError) in
            try ValueParsers.number(text, option: "min-zoom")
          } ?? limits.minZoom,
          max: try arguments.value("max-zoom").map { text throws(UsageError) in
            try ValueParsers.number(text, option: "max-zoom")
          } ?? limits.maxZoom)
      }
      if let text = arguments.value("max-tilt") {
        try limits.setRaisedTiltCap(try ValueParsers.number(text, option: "max-tilt"))
      }
    } catch let error as GeoError {
      throw UsageError(error.description)
    }
    options.limits = limits
    let camera = options.camera
    let target =
      try arguments.value("center").map { text throws(UsageError) in
        try ValueParsers.coordinate(text, option: "center")
      } ?? camera.target
    func number(_ name: String, _ fallback: Double) throws(UsageError) -> Double {
      guard let text = arguments.value(name) else { return fallback }
      return try ValueParsers.number(text, option: name)
    }
    do {
      options.camera = try Camera(
        target: target, zoom: try number("zoom", camera.zoom), bearing: try number("bearing", camera.bearing),
        viewingAngle: try number("tilt", camera.viewingAngle), limits: limits)
    } catch let error as GeoError {
      throw UsageError(error.description)
    }
    if let size = arguments.value("size") {
      (options.width, options.height) = try ValueParsers.size(size, option: "size")
    }
    options.scale = try number("scale", options.scale)
    guard options.scale > 0 else { throw UsageError("--scale must be positive") }
    if let padding = arguments.value("padding") {
      options.padding = try ValueParsers.padding(padding, option: "padding")
    }
    if let background = arguments.value("background") {
      options.backgroundColor = try ValueParsers.color(background, option: "background")
    }
    if let sky = arguments.value("sky") {
      options.skyColor = try ValueParsers.color(sky, option: "sky")
    }
    for text in arguments.allValues("update") {
      updates.append(try ValueParsers.update(text, option: "update"))
    }
    if arguments.has("msaa") { options.samples = 4 }
    if let text = arguments.value("tile-timeout") {
      options.tileLoadTimeout = try ValueParsers.number(text, option: "tile-timeout")
      guard (0...3600).contains(options.tileLoadTimeout) else {
        throw UsageError("--tile-timeout must be 0…3600 seconds")
      }
    }
    if arguments.has("skip-unusable-sources") { options.skipsUnusableSources = true }
    for folder in arguments.allValues("fonts") {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
        throw UsageError("--fonts \(folder): not a folder")
      }
      options.fontFolders.append(folder)
    }
    if arguments.has("tile-grid") { options.showsTileGrid = true }
    if let text = arguments.value("attribution") {
      guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw UsageError("--attribution: expected off or the text to show, found nothing")
      }
      options.attribution = text == "off" ? .off : .text(text)
    }
    if arguments.has("scale-bar") { options.showsScaleBar = true }
    if arguments.has("no-tile-grid") { options.showsTileGrid = false }
    try applyContent(arguments)
    markerSpecs = arguments.allValues("marker")
    icons = try IconSources(arguments)
    overlaySpecs =
      arguments.allValues("path").map { ("path", $0) } + arguments.allValues("polygon").map { ("polygon", $0) }
      + arguments.allValues("circle").map { ("circle", $0) }
    overlayFields = try OverlayKindFlags.sceneFields(arguments)
    myLocation = try arguments.value("my-location").map { text throws(UsageError) in
      try OverlayKindFlags.myLocation(text)
    }
    if let text = arguments.value("traffic") { options.traffic = try OverlayKindFlags.traffic(text) }
    try applyIndoor(arguments)
    visible = try arguments.allValues("visible").flatMap { text throws(UsageError) in
      try OverlayKindFlags.visible(text)
    }
    placesCamera =
      (scene?.placesCamera ?? false) || arguments.value("center") != nil || arguments.value("zoom") != nil
      || !arguments.allValues("update").isEmpty
    // The view and the camera updates checked now: a bad size, scale or padding is a usage error.
    do {
      _ = try options.mapState(applying: updates)
    } catch {
      throw UsageError(error.description)
    }

  }

  /// The map type or style: `--style` over `--map-id` over `--map-type` over the scene.
  private mutating func applyContent(_ arguments: ParsedArguments) throws {
    let workingFolder = FileManager.default.currentDirectoryPath
    let dataRoot = arguments.value("data-root").map { Scene.absolutePath($0, against: workingFolder) }
    if let stylePath = scene?.stylePath, let scene { style = (stylePath, scene.dataRoot) }
    if let text = arguments.value("map-type") {
      guard let type = MapType(rawValue: text) else {
        throw UsageError(
          "--map-type: expected one of \(MapType.allCases.map(\.rawValue).joined(separator: ", ")), found '\(text)'")
      }
      options.mapType = type
      style = nil
    }
    if let text = arguments.value("color-scheme") {
      guard let scheme = ColorScheme(name: text) else {
        throw UsageError("--color-scheme: expected light, dark or unspecified, found '\(text)'")
      }
      options.colorScheme = scheme
    }
    if let code = arguments.value("language") {
      guard MapOptions.isLanguageCode(code) else {
        throw UsageError("--language: expected a language code such as fa, zh or pt-BR, found '\(code)'")
      }
      options.language = code
    }
    var rules = options.mapStyle?.rules ?? []
    if let file = arguments.value("map-style") {
      let path = Scene.absolutePath(file, against: workingFolder)
      guard let data = FileManager.default.contents(atPath: path) else {
        throw UsageError("--map-style: cannot read '\(path)'")
      }
      rules = try MapStyle(jsonString: String(decoding: data, as: UTF8.self), source: path).rules
    }
    let googleRules = arguments.allValues("google-style")
    if !googleRules.isEmpty {
      rules += try MapStyle(staticMapsRules: googleRules, source: "--google-style").rules
    }
    if !rules.isEmpty { options.mapStyle = MapStyle(rules: rules) }
    if arguments.has("buildings") { options.buildingsEnabled = true }
    if arguments.has("no-buildings") { options.buildingsEnabled = false }
    if let dataRoot { options.data.dataRoot = dataRoot }
    if let tiles = arguments.value("tiles") { options.data.tiles = tiles }
    if let imagery = arguments.value("imagery") { options.data.imagery = imagery }
    if let dem = arguments.value("dem") { options.data.dem = dem }
    do {
      if let registry = arguments.value("map-ids") ?? arguments.value("styles-dir") {
        options.mapIDs = try MapIDRegistry(path: Scene.absolutePath(registry, against: workingFolder))
      }
      if let mapID = arguments.value("map-id") {
        if options.mapIDs == nil { options.mapIDs = try MapIDRegistry(path: workingFolder) }
        options.mapID = mapID
        // Checked now, so an unknown ID is a usage error listing the known ones.
        if case .style(let path) = try options.mapIDs!.look(mapID, colorScheme: options.colorScheme) {
          style = (path, dataRoot ?? (path as NSString).deletingLastPathComponent)
        } else {
          style = nil
        }
      }
    } catch {
      throw UsageError("--map-id: \(error)")
    }
    if let path = arguments.value("style") {
      let absolute = Scene.absolutePath(path, against: workingFolder)
      style = (absolute, dataRoot ?? (absolute as NSString).deletingLastPathComponent)
    }
    if style != nil { options.mapType = .none }
  }

  /// The map these settings describe, with its style and camera updates applied; style
  /// warnings go to `console`.
  func makeMap(console: Console, command: String, device: GLDevice? = nil) throws -> Map {
    var timings = SetupTimings()
    return try makeMap(console: console, command: command, device: device, timings: &timings)
  }

  /// Where the time of making a map went, in milliseconds.
  struct SetupTimings {
    /// Reading the style, opening its sources and starting the first frame's tiles.
    var map = 0.0
    /// Waiting for the GL device (EGL starts up on another thread meanwhile) and its context.
    var gl = 0.0
  }

  /// ``makeMap(console:command:device:)``, recording where the time went. Without `device`,
  /// EGL starts up on another thread while the style is read and the first frame's tiles load
  /// (see ``MapPreparation/startUp(gpu:_:)``).
  func makeMap(console: Console, command: String, device: GLDevice?, timings: inout SetupTimings) throws -> Map {
    if device == nil { HeadlessDisplay.startOpening(gpu) }
    let prepareStart = DispatchTime.now()
    let preparation = try MapPreparation(
      options: options, updates: updates, stylePath: style?.path, dataRoot: style?.dataRoot)
    timings.map = milliseconds(since: prepareStart)
    let deviceStart = DispatchTime.now()
    let map = try Map(preparation: preparation, device: try device ?? GLDevice(gpu: gpu))
    timings.gl += milliseconds(since: deviceStart)
    for warning in map.styleWarnings { console.printError("tessera \(command): warning: \(warning)") }
    if let scene { try map.addMarkers(from: scene) }
    for (option, value) in overlaySpecs {
      map.add(
        option == "circle"
          ? try OverlayFlags.circle(value) : try OverlayFlags.path(value, option: option, closed: option == "polygon"))
    }
    if overlayFields.count > 0 {
      try map.addOverlays(
        from: .object(overlayFields), source: "command line",
        access: .local(directory: FileManager.default.currentDirectoryPath, log: reads))
    }
    if let myLocation {
      try myLocation.check(source: "command line")
      map.myLocation = myLocation
      map.isMyLocationEnabled = true
    }
    for spec in markerSpecs {
      let (marker, selected) = try MarkerFlag.parse(spec, icons: icons ?? IconSources())
      map.add(marker)
      if selected { map.selectedMarker = marker }
    }
    if !placesCamera { map.fitCameraToContent(visible: (scene?.visible ?? []) + visible) }
    return map
  }

  private func milliseconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
  }
}

extension MapSettings {
  /// `--indoor DIR` and `--indoor-level N` (over the scene's `indoor`).
  mutating func applyIndoor(_ arguments: ParsedArguments) throws {
    let level = try arguments.value("indoor-level").map { text throws(UsageError) in
      try ValueParsers.integer(text, option: "indoor-level", range: -200...200)
    }
    if let folder = arguments.value("indoor") {
      let venue = try IndoorVenue(
        imdf: folder, access: .local(directory: FileManager.default.currentDirectoryPath, log: reads))
      options.indoor = try IndoorDisplay(venue: venue, ordinal: level ?? 0)
    } else if let level {
      guard let indoor = options.indoor else { throw UsageError("--indoor-level needs --indoor (or a scene's indoor)") }
      options.indoor = try IndoorDisplay(venue: indoor.venue, ordinal: level)
    }
  }
}
