import Foundation
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers
import TesseraRender

/// Markers described in a scene's `markers` field: a marker set (GeoJSON points with shared
/// icons, as the benchmark scenarios write them), or a list of markers and sets.
///
/// A set: `{"geojson": PATH, "icons": {NAME: PATH}, "iconProperty": "icon", "groundAnchor":
/// [x, y]}`; each Point feature is a marker whose properties may set the icon (by name),
/// `rotation`, `flat`, `opacity`, `zIndex`, `title`, `snippet`, `color` (a tinted default pin).
/// A marker: `{"position": [lat, lng], "title", "snippet", "icon": PATH | "color": CSS, "size":
/// "tiny|small|mid|normal", "label": "A" (the Static Maps API's pins),
/// "groundAnchor": [x, y], "rotation", "flat", "opacity", "zIndex", "appearAnimation":
/// "none|pop|fadeIn", "collisionBehavior": "required|requiredAndHidesOptional|
/// optionalAndHidesLowerPriority", "tappable", "selected": true (its info window opens),
/// "infoWindowAnchor": [x, y], "infoWindow": PATH (a custom info window picture)}`. Paths are
/// relative to the scene file.
enum SceneMarkers {
  /// The fields of a marker object.
  static let knownMarkerFields: Set<String> = [
    "position", "latitude", "longitude", "title", "snippet", "icon", "color", "size", "label", "groundAnchor",
    "rotation", "flat",
    "opacity", "zIndex", "appearAnimation", "collisionBehavior", "tappable", "selected", "infoWindowAnchor",
    "infoWindow",
  ]
  /// The fields of a marker set.
  static let knownSetFields: Set<String> = ["geojson", "icons", "iconProperty", "groundAnchor"]

  static func load(_ cursor: JSONCursor, access: ResourceAccess) throws -> [Marker] {
    try loadSelecting(cursor, access: access).markers
  }

  /// The markers, and the one marked `"selected": true` (the last when several are); files
  /// their fields name are read through `access`.
  static func loadSelecting(_ cursor: JSONCursor, access: ResourceAccess) throws -> (
    markers: [Marker], selected: Marker?
  ) {
    var loader = Loader(access: access)
    let markers = try loader.markers(cursor)
    return (markers, loader.selected)
  }

  struct Loader {
    let access: ResourceAccess
    /// Icons loaded once per file (and per colour), shared by every marker using them.
    var files: [String: MarkerIcon] = [:]
    var tints: [String: MarkerIcon] = [:]
    /// Static Maps pins by size, label and colour as written: markers alike share one.
    var pins: [String: MarkerIcon] = [:]
    /// The marker a `"selected": true` asks to select.
    var selected: Marker?

    init(access: ResourceAccess) {
      self.access = access
    }

    /// The markers of a `markers` section: a set, or a list of markers and sets.
    mutating func markers(_ cursor: JSONCursor) throws -> [Marker] {
      switch cursor.value {
      case nil, .null?:
        return []
      case .array?:
        var markers: [Marker] = []
        for element in try cursor.elements() {
          if element["geojson"].exists {
            markers += try set(element)
          } else {
            markers.append(try marker(element))
          }
        }
        return markers
      default:
        return try set(cursor)
      }
    }

    /// The icon `name` names: a resource the access provides, else a file (with its @2x and @3x
    /// siblings) when the access reaches files.
    mutating func icon(file name: String, field: JSONCursor) throws -> MarkerIcon {
      do {
        let key = access.provides(name) ? "provided:" + name : try access.path(name, field: field.path)
        if let icon = files[key] { return icon }
        let icon = try MarkerIcon(named: name, access: access, field: field.path)
        files[key] = icon
        return icon
      } catch let error as ResourceAccessError {
        throw MarkerError(source: field.source, reason: "\(error)")
      } catch {
        throw MarkerError(source: "\(field.source): \(field.path)", reason: "\(error)")
      }
    }

    mutating func tint(_ text: String, field: JSONCursor) throws -> MarkerIcon {
      if let icon = tints[text] { return icon }
      guard let color = try? Color(css: text) else {
        throw MarkerError(source: "\(field.source): \(field.path)", reason: "invalid colour '\(text)'")
      }
      let icon = MarkerIcon.markerImage(color: color)
      tints[text] = icon
      return icon
    }

    func anchor(_ cursor: JSONCursor) throws -> MarkerAnchor? {
      guard cursor.exists else { return nil }
      let limit = MarkerValidation.maximumAnchor
      let numbers = try cursor.elements().map { try $0.number(in: -limit...limit) }
      guard numbers.count == 2 else {
        throw MarkerError(source: "\(cursor.source): \(cursor.path)", reason: "expected [x, y]")
      }
      return MarkerAnchor(x: numbers[0], y: numbers[1])
    }

    /// One marker object.
    mutating func marker(_ cursor: JSONCursor) throws -> Marker {
      let position: Coordinate
      if cursor["position"].exists {
        let numbers = try cursor["position"].numbers()
        guard numbers.count == 2 else {
          throw MarkerError(
            source: "\(cursor.source): \(cursor.path).position", reason: "expected [latitude, longitude]")
        }
        position = Coordinate(latitude: numbers[0], longitude: numbers[1])
      } else {
        position = Coordinate(
          latitude: try cursor["latitude"].number(), longitude: try cursor["longitude"].number())
      }
      try check(position, cursor)
      let marker = Marker(
        position: position, title: try cursor["title"].optionalString(), snippet: try cursor["snippet"].optionalString()
      )
      let size = try cursor["size"].optionalString()
      let label = try cursor["label"].optionalString()
      if let file = try cursor["icon"].optionalString() {
        marker.icon = try icon(file: file, field: cursor["icon"])
      } else if size != nil || label != nil {
        // The Static Maps API's pins: a size and a one-character label.
        guard size.map({ MarkerIcon.staticMapsSizes[$0] != nil }) ?? true else {
          throw MarkerError(
            source: "\(cursor.source): \(cursor.path).size", reason: "expected tiny, small, mid or normal")
        }
        guard label.map({ MarkerIcon.staticMapsLabel($0) != nil }) ?? true else {
          throw MarkerError(
            source: "\(cursor.source): \(cursor.path).label", reason: "expected one character A–Z or 0–9 or one emoji")
        }
        let colorText = try cursor["color"].optionalString()
        let key = "\(size ?? "normal")|\(label ?? "")|\(colorText ?? "")"
        if let pin = pins[key] {
          marker.icon = pin
        } else {
          var color = DefaultPin.red
          if let colorText {
            guard let parsed = try? Color(css: colorText) else {
              throw MarkerError(
                source: "\(cursor.source): \(cursor.path).color", reason: "invalid colour '\(colorText)'")
            }
            color = parsed
          }
          let pin = MarkerIcon.staticMapsPin(
            color: color, size: size ?? "normal", label: label.flatMap(MarkerIcon.staticMapsLabel))
          pins[key] = pin
          marker.icon = pin
        }
      } else if let color = try cursor["color"].optionalString() {
        marker.icon = try tint(color, field: cursor["color"])
      }
      if let anchor = try anchor(cursor["groundAnchor"]) { marker.groundAnchor = anchor }
      if let anchor = try anchor(cursor["infoWindowAnchor"]) { marker.infoWindowAnchor = anchor }
      if let file = try cursor["infoWindow"].optionalString() {
        marker.infoWindowIcon = try icon(file: file, field: cursor["infoWindow"])
      }
      if try cursor["selected"].bool(default: false) { selected = marker }
      try applyStyle(marker, cursor)
      if let name = try cursor["appearAnimation"].optionalString() {
        let animations: [String: MarkerAppearAnimation] = ["none": .none, "pop": .pop, "fadeIn": .fadeIn]
        guard let animation = animations[name] else {
          throw MarkerError(
            source: "\(cursor.source): \(cursor.path).appearAnimation", reason: "expected none, pop or fadeIn")
        }
        marker.appearAnimation = animation
      }
      if let name = try cursor["collisionBehavior"].optionalString() {
        let behaviours: [String: MarkerCollisionBehavior] = [
          "required": .required, "requiredAndHidesOptional": .requiredAndHidesOptional,
          "optionalAndHidesLowerPriority": .optionalAndHidesLowerPriority,
        ]
        guard let behaviour = behaviours[name] else {
          throw MarkerError(
            source: "\(cursor.source): \(cursor.path).collisionBehavior",
            reason: "expected required, requiredAndHidesOptional or optionalAndHidesLowerPriority")
        }
        marker.collisionBehavior = behaviour
      }
      marker.isTappable = try cursor["tappable"].bool(default: true)
      return marker
    }

    func applyStyle(_ marker: Marker, _ cursor: JSONCursor) throws {
      marker.rotation = try cursor["rotation"].number(default: 0)
      marker.isFlat = try cursor["flat"].bool(default: false)
      let opacity = try cursor["opacity"].number(default: 1)
      guard (0...1).contains(opacity) else {
        throw MarkerError(source: "\(cursor.source): \(cursor.path).opacity", reason: "expected 0…1, found \(opacity)")
      }
      marker.opacity = opacity
      marker.zIndex = try cursor["zIndex"].integer(default: 0, in: Int(Int32.min)...Int(Int32.max))
    }

    func check(_ position: Coordinate, _ cursor: JSONCursor) throws {
      guard position.latitude.isFinite, position.longitude.isFinite, abs(position.latitude) <= 90 else {
        throw MarkerError(source: "\(cursor.source): \(cursor.path)", reason: "invalid position \(position)")
      }
    }

    /// A GeoJSON marker set.
    mutating func set(_ cursor: JSONCursor) throws -> [Marker] {
      let name = try cursor["geojson"].string()
      var icons: [String: MarkerIcon] = [:]
      if cursor["icons"].exists {
        for (name, path) in try cursor["icons"].members() {
          icons[name] = try icon(file: try path.string(), field: path)
        }
      }
      let property = try cursor["iconProperty"].optionalString() ?? "icon"
      let anchor = try anchor(cursor["groundAnchor"])
      let file: String
      let data: [UInt8]
      do {
        file = access.provides(name) ? name : try access.path(name, field: cursor["geojson"].path)
        data = try access.contents(name, field: cursor["geojson"].path)
      } catch {
        throw MarkerError(source: cursor.source, reason: "\(error)")
      }
      let root: JSONValue
      do {
        root = try JSONParser.parse(data)
      } catch {
        throw MarkerError(source: file, reason: "invalid JSON at \(error)")
      }
      let document = JSONCursor(root: root, source: file)
      let features: [JSONCursor]
      switch document["type"].value?.string {
      case "FeatureCollection": features = try document["features"].elements()
      case "Feature": features = [document]
      default: throw MarkerError(source: file, reason: "expected a GeoJSON Feature or FeatureCollection")
      }
      var markers: [Marker] = []
      markers.reserveCapacity(features.count)
      for feature in features {
        let geometry = feature["geometry"]
        guard geometry["type"].value?.string == "Point" else { continue }
        let coordinates = try geometry["coordinates"].numbers()
        guard coordinates.count >= 2 else {
          throw MarkerError(source: "\(file): \(geometry.path).coordinates", reason: "expected [longitude, latitude]")
        }
        let position = Coordinate(latitude: coordinates[1], longitude: coordinates[0])
        try check(position, geometry)
        let properties = feature["properties"]
        let marker = Marker(
          position: position, title: try properties["title"].optionalString(),
          snippet: try properties["snippet"].optionalString())
        if let name = try properties[property].optionalString() {
          guard let icon = icons[name] else {
            throw MarkerError(source: "\(file): \(properties.path).\(property)", reason: "no icon named '\(name)'")
          }
          marker.icon = icon
        } else if let color = try properties["color"].optionalString() {
          marker.icon = try tint(color, field: properties["color"])
        }
        if let anchor { marker.groundAnchor = anchor }
        try applyStyle(marker, properties)
        markers.append(marker)
      }
      return markers
    }
  }
}
