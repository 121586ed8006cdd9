import Foundation
import Tessera
import TesseraImage
import TesseraNumbers

/// A `GET /maps/api/staticmap` request read by Google's rules, in two steps: the parameters
/// (``init(_:configuration:)``, at once: a bad or missing parameter is a ``ServiceError`` with
/// status 400 and a one-line reason), then the scene (``scene(icons:configuration:)``) once the
/// custom icons it names (``icons``) are fetched. The scene is built as values (options,
/// camera, markers, overlays) with inline-only access; the fetched icons are given to it as
/// encoded bytes, decoded by the render that draws them.
struct StaticMapsQuery {
  var format: ImageEncoding
  /// The distinct custom icons the markers name (URLs or names in the icon folder), at most
  /// ``MarkerIcons/maximumPerRequest``.
  private(set) var icons: [String] = []
  /// The map options: size, scale, camera, map type, language, buildings, attribution.
  private var options = MapOptions()
  /// The camera when `center` and `zoom` place it; else it is fitted to the markers, paths and
  /// ``visible``.
  private var camera: (center: Coordinate, zoom: Double, heading: Double, tilt: Double)?
  /// The `visible` locations (and `center` given without `zoom`).
  private var visible: [Coordinate] = []
  private var markerGroups: [StaticMapsSyntax.Markers] = []
  /// The `path=` values, given to the scene as overlays.
  private var paths: [StaticMapsSyntax.Path] = []
  private var styles: [String] = []
  private var mapID: String?

  /// The parameters this reader reads (`key` and `signature` are checked before it); others
  /// are named in a warning and otherwise ignored, as Google ignores them.
  static let parameters: Set<String> = [
    "size", "scale", "format", "center", "zoom", "heading", "tilt", "maptype", "language", "buildings", "markers",
    "path", "visible", "style", "map_id", "key", "signature",
  ]
  /// Warnings for what the request asked that is not drawn (unknown parameters).
  private(set) var warnings: [String] = []

  /// Google's map types by their Static Maps names.
  static let mapTypes: [String: MapType] = [
    "roadmap": .normal, "satellite": .satellite, "terrain": .terrain, "hybrid": .hybrid,
  ]

  init(_ request: HTTPRequest, configuration: ServiceConfiguration) throws(ServiceError) {
    func bad(_ reason: String) -> ServiceError { ServiceError(status: 400, reason: reason) }
    func number(_ key: String) throws(ServiceError) -> Double? {
      guard let text = request.value(key) else { return nil }
      guard let value = Double(text), value.isFinite else { throw bad("\(key) must be a number, found '\(text)'") }
      return value
    }
    for name in Set(request.arguments.map(\.key)).subtracting(Self.parameters).sorted().prefix(8) {
      warnings.append("parameter '\(HeaderText.clean(String(name.prefix(40))))' is not known; ignored")
    }
    // size and scale, within Google's limits unless the configuration allows more.
    guard let size = request.value("size") else { throw bad("the size parameter is required (size=WIDTHxHEIGHT)") }
    let dimensions = size.lowercased().split(separator: "x").map { Int($0) }
    guard dimensions.count == 2, let width = dimensions[0], let height = dimensions[1], width > 0, height > 0 else {
      throw bad("size must be WIDTHxHEIGHT in pixels, found '\(size)'")
    }
    guard width <= configuration.maxWidth, height <= configuration.maxHeight else {
      throw bad("size \(width)x\(height) is larger than \(configuration.maxWidth)x\(configuration.maxHeight)")
    }
    let scale = try number("scale") ?? 1
    guard [1.0, 2, 4].contains(scale), scale <= configuration.maxScale else {
      throw bad(
        "scale must be 1 or 2\(configuration.maxScale >= 4 ? " or 4" : ""), found '\(request.value("scale") ?? "")'")
    }
    options.width = Double(width)
    options.height = Double(height)
    options.scale = scale
    // Format: Google's png is the 8-bit palette PNG, png32 full colour; jpg is progressive.
    switch (request.value("format") ?? "png").lowercased() {
    case "png", "png8": format = ImageEncoding(.png, palette: true)
    case "png32": format = ImageEncoding(.png)
    case "gif": format = ImageEncoding(.gif)
    case "jpg":
      format = ImageEncoding(.jpeg)
      format.progressive = true
    case "jpg-baseline": format = ImageEncoding(.jpeg)
    case "webp": format = ImageEncoding(.webp)
    case let other: throw bad("format must be png, png8, png32, gif, jpg, jpg-baseline or webp, found '\(other)'")
    }
    // Camera: center and zoom (Google zoom), with the heading and tilt extensions.
    var center: Coordinate?
    if let text = request.value("center") {
      let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
      guard parts.count == 2, let latitude = parts[0], let longitude = parts[1], latitude.isFinite, longitude.isFinite,
        abs(latitude) <= 90
      else {
        throw bad("center must be LAT,LNG; '\(text)' is not coordinates (addresses are not looked up: no geocoder)")
      }
      center = Coordinate(latitude: latitude, longitude: longitude)
    }
    let zoom = try number("zoom")
    if let zoom, !(0...22).contains(zoom) { throw bad("zoom must be in 0…22, found \(zoom)") }
    let heading = try number("heading") ?? 0
    let tilt = try number("tilt") ?? 0
    guard (0...85).contains(tilt) else { throw bad("tilt must be in 0…85 degrees, found \(tilt)") }
    // Map type and language.
    let type = request.value("maptype") ?? "roadmap"
    guard let mapType = Self.mapTypes[type] else {
      throw bad("maptype must be roadmap, satellite, terrain or hybrid, found '\(type)'")
    }
    options.mapType = mapType
    if let language = request.value("language") {
      guard MapOptions.isLanguageCode(language) else {
        throw bad("language must be a language code, found '\(language)'")
      }
      options.language = language
    }
    if let buildings = request.value("buildings") { options.buildingsEnabled = buildings == "true" }
    // Markers (drawn once their icons are known) and paths.
    for (index, text) in request.values("markers").enumerated() {
      let group: StaticMapsSyntax.Markers
      do {
        group = try StaticMapsSyntax.Markers(text)
      } catch {
        throw bad("markers[\(index)]: \(error.reason)")
      }
      if let icon = group.icon, !icons.contains(icon) {
        icons.append(icon)
        guard icons.count <= MarkerIcons.maximumPerRequest else {
          throw bad("at most \(MarkerIcons.maximumPerRequest) distinct custom icons are allowed per request")
        }
      }
      markerGroups.append(group)
    }
    let hasMarkers = markerGroups.contains { !$0.points.isEmpty }
    for (index, text) in request.values("path").enumerated() {
      do {
        paths.append(try StaticMapsSyntax.Path(text))
      } catch {
        throw bad("path[\(index)]: \(error.reason)")
      }
    }
    for text in request.values("visible") {
      for part in text.split(separator: "|") {
        let numbers = part.split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 2, abs(numbers[0]) <= 90, numbers.allSatisfy(\.isFinite) else {
          throw bad("visible must list LAT,LNG locations, found '\(part)' (addresses are not looked up)")
        }
        visible.append(Coordinate(latitude: numbers[0], longitude: numbers[1]))
      }
    }
    // Without center and zoom the view fits the markers, paths and visible locations.
    if let center, let zoom {
      camera = (center, zoom, heading, tilt)
    } else if center != nil || zoom != nil {
      if !hasMarkers && paths.isEmpty && visible.isEmpty {
        throw bad("center and zoom are both required without markers, path or visible")
      }
      if let center { visible.append(center) }
    } else if !hasMarkers && paths.isEmpty && visible.isEmpty {
      throw bad("center and zoom are required without markers, path or visible")
    }
    if !configuration.attribution { options.attribution = .off }
    styles = request.values("style")
    mapID = request.value("map_id")
    if let mapID, configuration.mapIDs == nil {
      throw bad("map_id '\(HeaderText.clean(String(mapID.prefix(100))))': this server declares no map IDs")
    }
  }

  /// The scene, given what became of each custom icon (``icons``): a picture, or why not (the
  /// markers that name it then get the default pin and the answer a warning). Returns the
  /// scene and those warnings.
  func scene(icons fetched: [String: Result<[UInt8], ServiceError>], configuration: ServiceConfiguration)
    throws(ServiceError) -> (scene: Scene, warnings: [String])
  {
    func bad(_ reason: String) -> ServiceError { ServiceError(status: 400, reason: reason) }
    var warnings = warnings
    var markers: [Marker] = []
    // Icons alike are shared, as the scene reader shares them: pictures by icon, pins by size,
    // label and colour, tinted default pins by colour.
    var pictures: [String: MarkerIcon] = [:]
    var pins: [PinKey: MarkerIcon] = [:]
    var tints: [Color: MarkerIcon] = [:]
    for (index, group) in markerGroups.enumerated() {
      var picture: MarkerIcon?
      if let icon = group.icon {
        switch fetched[icon] ?? .failure(ServiceError(status: 400, reason: "icon \(icon) was not fetched")) {
        case .success(let bytes) where !group.points.isEmpty:
          // Decoded by the render; a picture that does not decode names the first marker showing it.
          picture = pictures[icon] ?? MarkerIcon.encoded(bytes, field: "markers[\(markers.count)].icon")
          pictures[icon] = picture
        case .success:
          break
        case .failure(let error):
          warnings.append("markers[\(index)]: \(error.reason); the default pin is drawn")
        }
      }
      // Colours as 8-bit channels, as Google's are.
      let color = group.color.map(Self.eightBit)
      for point in group.points {
        let marker = Marker(position: point)
        if let picture {
          marker.icon = picture
          marker.groundAnchor = Self.anchor(group.anchor)
        } else if group.size != "normal" || group.label != nil {
          let key = PinKey(size: group.size, label: group.label, color: color)
          let pin =
            pins[key]
            ?? MarkerIcon.staticMapsPin(
              color: color ?? MarkerIcon.defaultPinColor, size: group.size, label: group.label.flatMap(\.first))
          pins[key] = pin
          marker.icon = pin
        } else if let color {
          let tint = tints[color] ?? MarkerIcon.markerImage(color: color)
          tints[color] = tint
          marker.icon = tint
        }
        markers.append(marker)
      }
    }
    var scene = Scene(options: options, dataRoot: "", name: ServiceConfiguration.requestName)
    scene.path = ServiceConfiguration.requestName
    scene.access = .inlineOnly()
    do {
      if let camera {
        try scene.setVisible(visible)
        try scene.placeCamera(
          latitude: camera.center.latitude, longitude: camera.center.longitude, zoom: camera.zoom,
          bearing: camera.heading, viewingAngle: camera.tilt)
      } else {
        try scene.fitCamera(showing: visible)
      }
    } catch {
      throw bad("\(error)")
    }
    scene.markers = markers
    configuration.applyServerData(to: &scene)
    scene.overlays = StaticMapsSyntax.Path.overlays(paths)
    // Styling rules and map IDs.
    if !styles.isEmpty {
      do {
        scene.options.mapStyle = try MapStyle(staticMapsRules: styles, source: "style")
      } catch {
        throw bad(error.description)
      }
    }
    if let id = mapID, let registry = configuration.mapIDs {
      do {
        _ = try registry.look(id)
      } catch {
        throw bad(error.reason)
      }
      scene.options.mapID = id
    }
    return (scene, warnings)
  }

  /// A Static Maps `anchor:` (x,y in pixels is taken as a share when ≤ 1; named positions)
  /// as a ground anchor; the API's default for icons is the bottom centre.
  static func anchor(_ text: String?) -> MarkerAnchor {
    let named: [String: (Double, Double)] = [
      "top": (0.5, 0), "bottom": (0.5, 1), "left": (0, 0.5), "right": (1, 0.5), "center": (0.5, 0.5),
      "topleft": (0, 0), "topright": (1, 0), "bottomleft": (0, 1), "bottomright": (1, 1),
    ]
    let (x, y) = text.flatMap { named[$0.lowercased()] } ?? (0.5, 1)
    return MarkerAnchor(x: x, y: y)
  }

  /// `color` with its red, green and blue rounded to 8 bits (its alpha kept), as Google's
  /// colours are.
  static func eightBit(_ color: Color) -> Color {
    func channel(_ value: Double) -> Double { Double(Int(clamping: (min(max(value, 0), 1) * 255).rounded())) / 255 }
    return Color(red: channel(color.red), green: channel(color.green), blue: channel(color.blue), alpha: color.alpha)
  }

  /// What makes Static Maps pins alike: markers with the same size, label and colour share one.
  struct PinKey: Hashable {
    var size: String
    var label: String?
    var color: Color?
  }
}

/// A request the service refuses: its HTTP status and a one-line reason.
package struct ServiceError: Error {
  package let status: Int
  package let reason: String
  package var headers: [(String, String)] = []
}
