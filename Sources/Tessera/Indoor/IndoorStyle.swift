import TesseraJSON
import TesseraNumbers
import TesseraStyle

/// The floor plan of an ``IndoorDisplay`` in a built-in map type's style: the active level's
/// units coloured by category with their walls, fixtures, openings (door gaps in the walls),
/// amenities as dots, and the names of units and occupants (any script), from camera zoom 17;
/// the map's buildings whose middle lies inside the venue's footprints are left out from that
/// zoom, so the floor plan takes the place of the 3D building.
enum IndoorStyle {
  static let sourceID = "tessera-indoor"
  /// The first style zoom (MapLibre's: camera zoom 17).
  static let minimumZoom = 16.0

  /// Unit and fixture fill colours by IMDF category, light and dark.
  static func fills(dark: Bool) -> JSONValue {
    let pairs: [([String], String, String)] = [
      (["walkway", "footbridge", "lobby", "ramp", "platform", "steps", "unenclosedarea"], "#ffffff", "#3a4452"),
      (["restroom", "restroom.male", "restroom.female", "restroom.unisex", "restroom.family"], "#dde7f5", "#33425a"),
      (["elevator", "escalator", "stairs", "movingwalkway"], "#e3e1de", "#454c57"),
      (["foodservice", "kitchen"], "#fbe8d3", "#4d4336"),
      (["nonpublic", "structure", "column", "serverroom", "storage", "mailroom"], "#d9d6d0", "#2b313a"),
      (["vegetation", "terrace", "recreation", "fieldofplay"], "#d7ecd0", "#2f4a3c"),
      (["parking"], "#e6e6ec", "#353b47"),
    ]
    var match: [JSONValue] = ["match", ["get", "category"]]
    for (categories, light, night) in pairs {
      match.append(.array(categories.map { .string($0) }))
      match.append(.string(dark ? night : light))
    }
    match.append(.string(dark ? "#2f3845" : "#f4eee6"))
    return .array(match)
  }

  /// `document` (a built-in map type's style) with the floor plan of `indoor` on top of its
  /// map layers and under its labels, its buildings inside the venue left out from zoom 17;
  /// `language` picks the names.
  static func adding(_ indoor: IndoorDisplay?, to document: JSONValue, dark: Bool, language: String?) -> JSONValue {
    guard let indoor, case .object(var style) = document, case .array(var layers)? = style["layers"] else {
      return document
    }
    let level = indoor.activeLevel
    let features: [JSONValue] = (indoor.venue.features[level.id] ?? []).map { feature in
      guard case .object(var object) = feature, case .object(var properties)? = object["properties"] else {
        return feature
      }
      var names: [String: String] = [:]
      for (tag, text) in properties["names"]?.object?.pairs ?? [] { names[tag] = text.string }
      properties["name"] = IndoorVenue.label(names, language: language).map { .string($0) } ?? .null
      properties["names"] = nil
      object["properties"] = .object(properties)
      return .object(object)
    }
    var sources = style["sources"]?.object ?? JSONObject()
    sources[sourceID] = ["type": "geojson", "data": ["type": "FeatureCollection", "features": .array(features)]]
    style["sources"] = .object(sources)
    // The venue's buildings (and their numbers) give way to the floor plan from zoom 17.
    let outside: JSONValue = [
      "any", ["<", ["zoom"], .number(minimumZoom)],
      [
        "!",
        [
          .string(WithinRegion.centreOperator),
          ["type": "MultiPolygon", "coordinates": .array(polygons(indoor.venue.footprints))],
        ],
      ],
    ]
    layers = layers.map { layer in
      guard case .object(var object) = layer,
        object["source-layer"] == "building" || object["source-layer"] == "housenumber"
      else { return layer }
      object["filter"] = object["filter"].map { ["all", $0, outside] } ?? outside
      return .object(object)
    }
    func layer(_ id: String, _ type: String, kinds: [String], paint: JSONObject, layout: JSONObject = [:]) -> JSONValue
    {
      var object: JSONObject = [
        "id": .string("indoor-\(id)"), "type": .string(type), "source": .string(sourceID),
        "minzoom": .number(minimumZoom),
        "filter": ["match", ["get", "kind"], .array(kinds.map { .string($0) }), true, false],
        "paint": .object(paint),
      ]
      if layout.count > 0 { object["layout"] = .object(layout) }
      return .object(object)
    }
    let wall = dark ? "#6b7585" : "#a79f94"
    let floor = dark ? "#2a323d" : "#faf8f5"
    let text = dark ? "#d5dbe3" : "#4a4238"
    let halo = dark ? "#1f2630" : "#ffffff"
    let plan: [JSONValue] = [
      layer("level", "fill", kinds: ["level"], paint: ["fill-color": .string(floor)]),
      layer("unit", "fill", kinds: ["unit"], paint: ["fill-color": fills(dark: dark)]),
      layer("section", "line", kinds: ["section"], paint: ["line-color": .string(wall), "line-dasharray": [2, 2]]),
      layer("fixture", "fill", kinds: ["fixture"], paint: ["fill-color": dark ? "#4a525e" : "#ddd7ce"]),
      layer(
        "wall", "line", kinds: ["unit", "level"],
        paint: [
          "line-color": .string(wall),
          "line-width": ["interpolate", ["linear"], ["zoom"], 16, 0.8, 19, 2.5],
        ]),
      layer(
        "opening", "line", kinds: ["opening"],
        paint: ["line-color": .string(floor), "line-width": ["interpolate", ["linear"], ["zoom"], 16, 1.5, 19, 4]],
        layout: ["line-cap": "butt"]),
      layer(
        "amenity", "circle", kinds: ["amenity"],
        paint: [
          "circle-color": dark ? "#7aa7e0" : "#1a73e8", "circle-radius": 4, "circle-stroke-width": 1.5,
          "circle-stroke-color": .string(halo),
        ]),
      layer(
        "label", "symbol", kinds: ["unit", "occupant"],
        paint: ["text-color": .string(text), "text-halo-color": .string(halo), "text-halo-width": 1.2],
        layout: [
          "text-field": ["coalesce", ["get", "name"], ""], "text-font": BuiltinLabels.regular, "text-size": 11,
          "text-max-width": 7, "text-padding": 1,
        ]),
    ]
    // Over the map's layers, under its labels and 3D buildings.
    let index =
      layers.firstIndex { $0["type"]?.string == "symbol" || $0["type"]?.string == "fill-extrusion" }
      ?? layers.count
    layers.insert(contentsOf: plan, at: index)
    style["layers"] = .array(layers)
    return .object(style)
  }

  /// The polygons' rings of GeoJSON Polygon and MultiPolygon geometries.
  static func polygons(_ geometries: [JSONValue]) -> [JSONValue] {
    var polygons: [JSONValue] = []
    for geometry in geometries {
      switch geometry["type"]?.string {
      case "Polygon"?: if let rings = geometry["coordinates"] { polygons.append(rings) }
      case "MultiPolygon"?: polygons += geometry["coordinates"]?.array ?? []
      default: break
      }
    }
    return polygons
  }
}
