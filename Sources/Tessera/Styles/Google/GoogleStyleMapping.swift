import TesseraJSON
import TesseraNumbers

/// Which of Google's feature types each layer of the built-in map types draws, and which
/// element each of its paint properties is: the table Google styling is applied through
/// (docs/styles-and-map-types.md, "Google map styling and map IDs", lists it).
enum GoogleStyleMapping {
  /// The feature types of a layer: one for all its features, or by the value of a property.
  enum Features {
    case one(String)
    case byProperty(String, [(JSONValue, String)], otherwise: String)

    /// Every feature type the layer can draw.
    var all: Set<String> {
      switch self {
      case .one(let type): return [type]
      case .byProperty(_, let table, let otherwise): return Set(table.map(\.1) + [otherwise])
      }
    }
  }

  struct Layer {
    var features: Features
    /// The element of a line layer's `line-color` (roads' fills and casings differ).
    var lineElement = "geometry.fill"
    /// Whether the layer's text belongs to its icon (a route number on its shield): hidden
    /// with the icon.
    var textBelongsToIcon = false
  }

  /// OpenMapTiles road classes.
  static let roads: Features = .byProperty(
    "class",
    [
      ("motorway", "road.highway.controlled_access"), ("trunk", "road.highway"), ("primary", "road.arterial"),
      ("secondary", "road.arterial"), ("tertiary", "road.arterial"), ("rail", "transit.line"),
      ("transit", "transit.line"),
    ].map { (.string($0.0), $0.1) }, otherwise: "road.local")

  /// OpenMapTiles POI classes.
  static let pois: Features = {
    var table: [(String, String)] = []
    for (category, classes) in BuiltinIcons.categoryClasses {
      let type: String
      switch category {
      case "food", "shopping": type = "poi.business"
      case "health": type = "poi.medical"
      case "park": type = "poi.park"
      case "culture": type = "poi.attraction"
      case "education": type = "poi.school"
      case "civic": type = "poi.government"
      case "transit": type = "transit.station"
      default: type = "poi"
      }
      table += classes.map { ($0, type) }
    }
    let specific: [String: String] = [
      "place_of_worship": "poi.place_of_worship", "lodging": "poi.business", "bank": "poi.business",
      "pitch": "poi.sports_complex", "stadium": "poi.sports_complex", "zoo": "poi.attraction",
      "bus": "transit.station.bus", "railway": "transit.station.rail", "aerialway": "transit.station",
      "parking": "poi.business", "fuel": "poi.business", "aerodrome": "transit.station.airport",
    ]
    table = table.map { ($0.0, specific[$0.0] ?? $0.1) }
    for (name, type) in specific.sorted(by: { $0.key < $1.key }) where !table.contains(where: { $0.0 == name }) {
      table.append((name, type))
    }
    return .byProperty("class", table.map { (.string($0.0), $0.1) }, otherwise: "poi")
  }()

  /// The built-in layers by id.
  static let layers: [String: Layer] = {
    var table: [String: Layer] = [
      "land": Layer(features: .one("landscape")),
      "landuse-residential": Layer(features: .one("landscape.man_made")),
      "landuse-commercial": Layer(features: .one("landscape.man_made")),
      "landuse-industrial": Layer(features: .one("landscape.man_made")),
      "landuse-hospital": Layer(features: .one("poi.medical")),
      "landuse-school": Layer(features: .one("poi.school")),
      "landuse-green": Layer(
        features: .byProperty(
          "class",
          [
            (.string("stadium"), "poi.sports_complex"), (.string("pitch"), "poi.sports_complex"),
            (.string("playground"), "poi.park"),
          ], otherwise: "landscape.man_made")),
      "park": Layer(features: .one("poi.park")),
      "hillshade": Layer(features: .one("landscape.natural.terrain")),
      "contour": Layer(features: .one("landscape.natural.terrain")),
      "contour-index": Layer(features: .one("landscape.natural.terrain")),
      "contour-label": Layer(features: .one("landscape.natural.terrain")),
      "water": Layer(features: .one("water")),
      "waterway": Layer(features: .one("water")),
      "aeroway": Layer(features: .one("transit.station.airport")),
      "boundary": Layer(
        features: .byProperty(
          "admin_level", [(.number(2), "administrative.country")], otherwise: "administrative.province"),
        lineElement: "geometry.stroke"),
      "rail": Layer(features: .one("transit.line")),
      "building": Layer(features: .one("landscape.man_made")),
      "building-3d": Layer(features: .one("landscape.man_made")),
      "housenumber": Layer(features: .one("administrative.land_parcel")),
      "poi": Layer(features: pois),
      "poi-minor": Layer(features: pois),
      "road-name-minor": Layer(features: roads),
      "road-name-major": Layer(features: roads),
      "road-shield": Layer(features: roads, textBelongsToIcon: true),
      "waterway-name": Layer(features: .one("water")),
      "water-name-line": Layer(features: .one("water")),
      "water-name-point": Layer(features: .one("water")),
      "place-suburb": Layer(features: .one("administrative.neighborhood")),
      "place-village": Layer(features: .one("administrative.locality")),
      "place-town": Layer(features: .one("administrative.locality")),
      "place-city": Layer(features: .one("administrative.locality")),
      "place-state": Layer(features: .one("administrative.province")),
      "place-country": Layer(features: .one("administrative.country")),
    ]
    for id in ["landcover-wood", "landcover-grass", "landcover-sand", "landcover-ice"] {
      table[id] = Layer(features: .one("landscape.natural.landcover"))
    }
    for id in ["road-minor", "road-secondary", "road-primary", "road-motorway", "road-path", "road-major"] {
      table[id] = Layer(features: roads)
    }
    for id in ["road-minor-casing", "road-secondary-casing", "road-primary-casing", "road-motorway-casing"] {
      table[id] = Layer(features: roads, lineElement: "geometry.stroke")
    }
    return table
  }()

  /// The element of a colour property of a layer (nil: not styled).
  static func element(ofColor property: String, in layer: Layer) -> String? {
    switch property {
    case "background-color", "fill-color", "fill-extrusion-color", "hillshade-shadow-color",
      "hillshade-highlight-color", "hillshade-accent-color":
      return "geometry.fill"
    case "fill-outline-color": return "geometry.stroke"
    case "line-color": return layer.lineElement
    case "text-color": return "labels.text.fill"
    case "text-halo-color": return "labels.text.stroke"
    default: return nil
    }
  }
}
