import Foundation
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// A scene file: one JSON document that fully describes a render (size, scale, camera, padding,
/// background and, as features arrive, style, data and markers). It accepts the benchmark
/// scenarios of `shared/bench/scenarios` as they are; see docs/scene-format.md for every field.
public struct Scene: Sendable {
  /// The scene's name (`name`), or the file name without extension.
  public var name: String
  /// Free text (`description`).
  public var summary: String?
  /// The file the scene came from.
  public var path: String
  /// The map options the scene sets.
  public var options: MapOptions
  /// The data root (`dataRoot`, relative to the scene file), absolute.
  public var dataRoot: String
  /// The MapLibre style (`style`, relative to the data root), absolute, if any; its source
  /// URLs resolve against the data root. Without one the map draws ``MapOptions/mapType``.
  public var stylePath: String?
  /// Whether the scene places the camera (`camera` or `updates`); without, the camera is fitted
  /// to the markers, overlays and `visible` coordinates as the Static Maps API does.
  public var placesCamera = true
  /// Coordinates the view must show when the camera is fitted (`visible`: `[[lat, lng], …]`).
  public var visible: [Coordinate] = []
  /// How the camera is fitted without one (`fit`: `{"padding": POINTS, "maxZoom": Z,
  /// "wholeZoom": true}`; the Static Maps API's way by default).
  public var fit = Fit()

  /// How a camera is fitted: `padding` points kept clear at the view's edges (0…4096), at most
  /// zoom `maxZoom` (0…22), a whole zoom unless `wholeZoom` is false.
  public struct Fit: Sendable, Equatable {
    public var padding: Double
    public var maxZoom: Double
    public var wholeZoom: Bool
    public init(padding: Double = 24, maxZoom: Double = 18, wholeZoom: Bool = true) {
      self.padding = padding
      self.maxZoom = maxZoom
      self.wholeZoom = wholeZoom
    }
    static let paddingRange = 0.0...4096
    static let maxZoomRange = 0.0...22
  }
  /// The `markers` section as written (a marker set, or a list of markers and sets; read
  /// through ``access`` when the map is made).
  public var markerFields: JSONValue?
  /// Progress (0…1) of the markers' appear animations (`markerAppear`, default 1: finished).
  public var markerAppearProgress = 1.0
  /// The overlay fields as written (one per kind of ``OverlayKinds``, and `myLocation`; read
  /// through ``access`` when the map is made).
  public var overlayFields: JSONValue?
  /// Markers and overlays given as values, drawn after those the fields describe.
  var items = SceneItems()
  /// The index in `markers` of the marker whose info window opens (`selectedMarker`); a
  /// marker's own `"selected": true` does the same.
  public var selectedMarkerIndex: Int?
  /// Camera updates applied in order after the camera is set (`updates`).
  public var updates: [CameraUpdate]
  /// The animation to render instead of a single frame (`animation`), if any.
  public var animation: SceneAnimation?
  /// Feature states set once the style is drawn (`featureStates`: `{"source", "sourceLayer",
  /// "id", "state"}` each), read by `["feature-state", …]` paint.
  public var featureStates: [SceneFeatureState] = []
  /// Fields that were ignored, one message each.
  public var warnings: [String]
  /// What the scene's fields may name (files, sources, URLs), for the markers and overlays read
  /// when its map is made; set by whoever read the scene (``parse(_:path:access:)``).
  public var access: ResourceAccess

  /// The fields a scene may have.
  static var knownFields: Set<String> {
    Set(OverlayKinds.sceneFieldNames).union([
      "name", "description", "dataRoot", "size", "scale", "camera", "padding", "background", "style",
      "markers", "tileGrid", "msaa", "minZoom", "maxZoom", "maxTilt", "cameraTargetBounds", "updates", "animation",
      "sky", "mapType", "colorScheme", "language", "mapStyle", "mapID", "mapIDs", "selectedMarker", "attribution",
      "scaleBar", "myLocation", "traffic", "indoor", "visible", "fit", "tiles", "imagery", "dem", "buildings",
      "markerAppear",
      "featureStates",
    ])
  }

  /// A scene made in code: a map of `options` (drawing its map type, or the MapLibre style at
  /// `stylePath`, whose relative URLs resolve against `dataRoot`) with `updates` applied to its
  /// camera. `name` names it in messages.
  public init(
    options: MapOptions, updates: [CameraUpdate] = [], stylePath: String? = nil,
    dataRoot: String = FileManager.default.currentDirectoryPath, name: String = "scene"
  ) {
    self.name = name
    path = (dataRoot as NSString).appendingPathComponent(name)
    self.options = options
    self.dataRoot = dataRoot
    self.stylePath = stylePath
    self.updates = updates
    warnings = []
    access = .local(directory: dataRoot)
  }

  /// The fields of the scene's objects.
  static let nestedFields: [String: Set<String>] = [
    "size": ["width", "height"],
    "camera": ["latitude", "longitude", "zoom", "bearing", "viewingAngle"],
    "padding": ["top", "left", "bottom", "right"],
    "animation": ["to", "update", "bearing", "viewingAngle", "duration", "fps", "easing"],
    "fit": ["padding", "maxZoom", "wholeZoom"],
    "traffic": ["geojson", "tiles", "sourceLayer", "attribute"],
    "indoor": ["imdf", "level"],
    "myLocation": SceneOverlays.myLocationFields,
  ]

  /// One warning for each field of the object at `cursor` not in `known` (throws when it is
  /// not an object).
  static func unknownFields(_ cursor: JSONCursor, known: Set<String>) throws -> [String] {
    try cursor.keys().filter { !known.contains($0) }.map {
      "\(cursor.source): unknown field '\(cursor.path.isEmpty ? $0 : cursor.path + "." + $0)' ignored"
    }
  }

  /// Warnings for unknown fields of the markers and marker sets in `markers`.
  static func unknownMarkerFields(_ markers: JSONCursor) throws -> [String] {
    switch markers.value {
    case nil, .null?:
      return []
    case .array?:
      return try markers.elements().flatMap { element in
        try unknownFields(
          element,
          known: element["geojson"].exists ? SceneMarkers.knownSetFields : SceneMarkers.knownMarkerFields)
      }
    default:
      return try unknownFields(markers, known: SceneMarkers.knownSetFields)
    }
  }

  /// Reads and parses a scene file; its fields reach what `access` allows (by default local
  /// files relative to the scene's folder, and sources of any kind).
  public static func load(path: String, access: ResourceAccess? = nil) throws(SceneError) -> Scene {
    let bytes: [UInt8]
    do {
      bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw SceneError.unreadable(path: path, reason: (error as NSError).localizedDescription)
    }
    return try parse(bytes, path: path, access: access)
  }

  /// Parses scene JSON; relative paths inside resolve against `path`'s directory unless
  /// `access` says otherwise.
  public static func parse(_ bytes: [UInt8], path: String, access: ResourceAccess? = nil) throws(SceneError) -> Scene {
    let root: JSONValue
    do {
      root = try JSONParser.parse(bytes)
    } catch {
      throw SceneError.syntax(path: path, error)
    }
    return try parse(root, path: path, access: access)
  }

  /// Reads a scene already parsed (or built) as a JSON value; `path` names the scene in errors.
  /// What its fields may name is `access`: by default local files relative to `path`'s folder
  /// and sources of any kind; ``ResourceAccess/inlineOnly(providing:)`` for a scene from the
  /// network, whose fields naming files, folders, sources or URLs are then refused wherever they
  /// appear (the scene keeps the access for the markers and overlays read later).
  /// The members of a `tessera` object replace the scene's own fields of the same name: a
  /// scenario shared with other renderers (MapLibre Native reads only `style`) can hand
  /// Tessera overlays where the others draw the same data as style layers.
  public static func parse(_ root: JSONValue, path: String, access: ResourceAccess? = nil) throws(SceneError)
    -> Scene
  {
    let access = access ?? .local(directory: (path as NSString).deletingLastPathComponent)
    var root = root
    if case .object(var fields) = root, let own = fields["tessera"] {
      guard case .object(let overrides) = own else {
        throw SceneError.invalid(path: path, field: "tessera", reason: "expected an object of scene fields")
      }
      fields["tessera"] = nil
      for (key, value) in overrides.pairs { fields[key] = value }
      root = .object(fields)
    }
    do {
      return try Scene(root: JSONCursor(root: root, source: path), path: path, access: access)
    } catch let error as SceneError {
      throw error
    } catch let error as ResourceAccessError {
      throw SceneError.access(path: path, error)
    } catch let error as JSONFieldError {
      throw SceneError.field(error)
    } catch {
      throw SceneError.invalid(path: path, field: "", reason: "\(error)")
    }
  }

  private init(root: JSONCursor, path: String, access: ResourceAccess) throws {
    _ = try root.keys()
    self.path = path
    self.access = access
    let fileName = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    name = try root["name"].optionalString() ?? fileName
    summary = try root["description"].optionalString()
    var warnings = try Scene.unknownFields(root, known: Scene.knownFields)
    for (field, known) in Scene.nestedFields where !root[field].isAbsentOrNull {
      warnings += try Scene.unknownFields(root[field], known: known)
    }
    if !root["animation"]["to"].isAbsentOrNull {
      warnings += try Scene.unknownFields(root["animation"]["to"], known: Scene.nestedFields["camera"]!)
    }
    warnings += try Scene.unknownMarkerFields(root["markers"])
    warnings += try SceneOverlays.unknownFields(root)
    self.warnings = warnings
    // The data root and the style are files; relative names in the style resolve against the
    // data root.
    let dataRoot =
      try root["dataRoot"].optionalString().map { try access.path($0, field: "dataRoot") } ?? access.directory ?? ""
    self.dataRoot = dataRoot
    stylePath = try root["style"].optionalString().map {
      try access.resolving(against: dataRoot).path($0, field: "style")
    }
    markerFields = root["markers"].value
    var overlayFields = JSONObject()
    for field in SceneOverlays.sceneFields + ["myLocation"] where !root[field].isAbsentOrNull {
      overlayFields[field] = root[field].value!
    }
    self.overlayFields = overlayFields.count > 0 ? .object(overlayFields) : nil
    if !root["selectedMarker"].isAbsentOrNull {
      selectedMarkerIndex = try root["selectedMarker"].integer(in: 0...1_000_000)
    }
    if !root["featureStates"].isAbsentOrNull {
      featureStates = try root["featureStates"].elements().map(SceneFeatureState.parse)
    }
    markerAppearProgress = try root["markerAppear"].number(default: 1)
    guard (0...1).contains(markerAppearProgress) else {
      throw SceneError.invalid(path: path, field: "markerAppear", reason: "expected 0…1")
    }

    var options = MapOptions()
    if root["size"].exists { _ = try root["size"].keys() }
    options.width = try root["size"]["width"].number(default: options.width)
    options.height = try root["size"]["height"].number(default: options.height)
    options.scale = try root["scale"].number(default: 1)
    var limits = CameraLimits()
    do {
      try limits.setZoomRange(
        min: try root["minZoom"].number(default: CameraLimits.minimumZoomLevel),
        max: try root["maxZoom"].number(default: CameraLimits.maximumZoomLevel))
      try limits.setRaisedTiltCap(try root["maxTilt"].optionalNumber())
    } catch let error as GeoError {
      throw SceneError.invalid(path: path, field: "minZoom/maxZoom/maxTilt", reason: error.description)
    }
    options.limits = limits
    placesCamera = root["camera"].exists || root["updates"].exists
    if !root["fit"].isAbsentOrNull {
      fit.padding = try root["fit"]["padding"].number(default: fit.padding, in: Fit.paddingRange)
      fit.maxZoom = try root["fit"]["maxZoom"].number(default: fit.maxZoom, in: Fit.maxZoomRange)
      fit.wholeZoom = try root["fit"]["wholeZoom"].bool(default: fit.wholeZoom)
    }
    if !root["visible"].isAbsentOrNull {
      do {
        visible = try SceneOverlays.coordinates(root["visible"])
      } catch let error as OverlayError {
        throw SceneError.invalid(path: path, field: "visible", reason: error.reason)
      }
    }
    if root["camera"].exists {
      let camera = root["camera"]
      do {
        options.camera = try Camera(
          latitude: try camera["latitude"].number(), longitude: try camera["longitude"].number(),
          zoom: try camera["zoom"].number(), bearing: try camera["bearing"].number(default: 0),
          viewingAngle: try camera["viewingAngle"].number(default: 0), limits: limits)
      } catch let error as GeoError {
        throw SceneError.invalid(path: path, field: "camera", reason: error.description)
      }
    }
    let padding = root["padding"]
    options.padding = EdgeInsets(
      top: try padding["top"].number(default: 0), left: try padding["left"].number(default: 0),
      bottom: try padding["bottom"].number(default: 0), right: try padding["right"].number(default: 0))
    if let background = try root["background"].optionalString() {
      do {
        options.backgroundColor = try Color(css: background)
      } catch {
        throw SceneError.invalid(path: path, field: "background", reason: "\(error)")
      }
    }
    if let sky = try root["sky"].optionalString() {
      do {
        options.skyColor = try Color(css: sky)
      } catch {
        throw SceneError.invalid(path: path, field: "sky", reason: "\(error)")
      }
    }
    if root["cameraTargetBounds"].exists {
      let box = try root["cameraTargetBounds"].numbers()
      let bounds =
        box.count == 4 ? CoordinateBounds(south: box[1], west: box[0], north: box[3], east: box[2]) : CoordinateBounds()
      guard bounds.isValid else {
        throw SceneError.invalid(
          path: path, field: "cameraTargetBounds", reason: "expected [west, south, east, north] with south ≤ north")
      }
      options.cameraTargetBounds = bounds
    }
    var updates: [CameraUpdate] = []
    if !root["updates"].isAbsentOrNull {
      for element in try root["updates"].elements() {
        let text = try element.string()
        do {
          updates.append(try CameraUpdate(text: text))
        } catch {
          throw SceneError.invalid(path: path, field: element.path, reason: error.description)
        }
      }
    }
    self.updates = updates
    animation =
      try root["animation"].isAbsentOrNull ? nil : SceneAnimation(root["animation"], path: path, limits: limits)
    options.showsTileGrid = try root["tileGrid"].bool(default: false)
    if let text = try root["mapType"].optionalString() {
      guard let type = MapType(rawValue: text) else {
        throw SceneError.invalid(
          path: path, field: "mapType",
          reason: "expected one of \(MapType.allCases.map(\.rawValue).joined(separator: ", ")), found '\(text)'")
      }
      options.mapType = type
    }
    if let text = try root["colorScheme"].optionalString() {
      guard let scheme = ColorScheme(name: text) else {
        throw SceneError.invalid(
          path: path, field: "colorScheme", reason: "expected light, dark or unspecified, found '\(text)'")
      }
      options.colorScheme = scheme
    }
    switch root["attribution"].value {
    case nil, .null?, .bool(true)?: break
    case .bool(false)?: options.attribution = .off
    case .string(let text)?: options.attribution = text == "off" ? .off : .text(text)
    default:
      throw SceneError.invalid(
        path: path, field: "attribution", reason: "expected true, false, \"off\" or the text to show")
    }
    options.showsScaleBar = try root["scaleBar"].bool(default: false)
    if let code = try root["language"].optionalString() {
      guard MapOptions.isLanguageCode(code) else {
        throw SceneError.invalid(
          path: path, field: "language", reason: "expected a language code such as fa, zh or pt-BR, found '\(code)'")
      }
      options.language = code
    }
    options.buildingsEnabled = try root["buildings"].bool(default: true)
    options.traffic = try Scene.traffic(root["traffic"], access: access)
    options.indoor = try Scene.indoor(root["indoor"], access: access)
    options.mapStyle = try Scene.mapStyle(root["mapStyle"], access: access)
    options.mapID = try root["mapID"].optionalString()
    if let registry = try root["mapIDs"].optionalString() {
      options.mapIDs = try MapIDRegistry(path: try access.path(registry, field: "mapIDs"))
    }
    var data = MapData(dataRoot: dataRoot)
    if let tiles = try root["tiles"].optionalString() { data.tiles = try access.sourceReference(tiles, field: "tiles") }
    data.imagery = try root["imagery"].optionalString().map { try access.sourceReference($0, field: "imagery") }
    data.dem = try root["dem"].optionalString().map { try access.sourceReference($0, field: "dem") }
    options.data = data
    options.samples = try root["msaa"].bool(default: false) ? 4 : 1
    do {
      _ = try options.viewport()
    } catch {
      throw SceneError.invalid(path: path, field: "size/scale/padding", reason: "\(error)")
    }
    self.options = options
  }

  /// The camera state the scene's map starts in: its options' camera after its updates.
  public func mapState() throws(GeoError) -> MapState {
    try options.mapState(applying: updates)
  }
}

extension Scene {
  /// `"indoor": {"imdf": FOLDER, "level": ORDINAL}` (the IMDF folder or .zip relative to the
  /// scene file; the level 0 when not given). `"venue": NAME` is for the service's venues.
  static func indoor(_ cursor: JSONCursor, access: ResourceAccess) throws -> IndoorDisplay? {
    guard !cursor.isAbsentOrNull else { return nil }
    _ = try cursor.keys()
    if cursor["venue"].exists {
      throw SceneError.invalid(
        path: cursor.source, field: "indoor.venue",
        reason: "a venue by name is one of the service's venues; a scene file names its IMDF folder with \"imdf\"")
    }
    let venue = try IndoorVenue(imdf: try cursor["imdf"].string(), access: access)
    return try IndoorDisplay(venue: venue, ordinal: try cursor["level"].optionalInteger(in: -200...200) ?? 0)
  }

  /// `"traffic": {"geojson": PATH | "tiles": URL, "sourceLayer": NAME, "attribute": "congestion"}`
  /// (paths relative to the scene file).
  static func traffic(_ cursor: JSONCursor, access: ResourceAccess) throws -> TrafficLayer? {
    guard !cursor.isAbsentOrNull else { return nil }
    _ = try cursor.keys()
    let attribute = try cursor["attribute"].optionalString() ?? "congestion"
    if let file = try cursor["geojson"].optionalString() {
      return TrafficLayer(data: .geoJSON(path: try access.path(file, field: "traffic.geojson")), attribute: attribute)
    }
    guard var url = try cursor["tiles"].optionalString() else {
      throw SceneError.invalid(path: cursor.source, field: "traffic", reason: "expected \"geojson\" or \"tiles\"")
    }
    url = try access.sourceReference(url, field: "traffic.tiles")
    if !url.contains("://") { url = try access.path(url, field: "traffic.tiles") }
    return TrafficLayer(
      data: .vectorTiles(url: url, sourceLayer: try cursor["sourceLayer"].optionalString() ?? "traffic"),
      attribute: attribute)
  }
}

extension Scene {
  /// `"mapStyle"`: Google styling JSON inline (an array of rules) or the path of a file holding
  /// it (relative to the scene file).
  static func mapStyle(_ cursor: JSONCursor, access: ResourceAccess) throws -> MapStyle? {
    guard let value = cursor.value, value != .null else { return nil }
    if case .string(let file) = value {
      let bytes = try access.contents(file, field: "mapStyle", maxBytes: 16 << 20)
      return try MapStyle(jsonString: String(decoding: bytes, as: UTF8.self), source: file)
    }
    return try MapStyle(json: value, source: "\(cursor.source): mapStyle")
  }
}
