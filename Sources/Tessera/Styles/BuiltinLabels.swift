import TesseraJSON
import TesseraNumbers

/// The label layers of the built-in map types over the OpenMapTiles schema, with a Google-like
/// look: place names sized by class and rank (countries bold, suburbs in spaced capitals), road
/// names along the roads (major roads larger and placed first), route shields on motorways,
/// trunks and primaries, water names in blue italics, POI names under category-coloured
/// badges, house numbers at street zoom. Zooms are MapLibre's (Google zoom − 1).
///
/// Layers later in the list are placed first, so they are ordered from least to most
/// important: house numbers, POIs, road names, shields, water names, places, countries.
enum BuiltinLabels {
  static let regular: JSONValue = ["Noto Sans Regular"]
  static let bold: JSONValue = ["Noto Sans Bold"]
  static let italic: JSONValue = ["Noto Sans Italic"]

  /// The label layers in `palette`; names in `language` (`name:xx`, falling back to
  /// `name_int`, `name_en`, `name`) or the local `name` when nil. Over imagery (`imagery`)
  /// there are no house numbers and no shields.
  static func layers(_ palette: LabelPalette, language: String?, imagery: Bool = false) -> [JSONValue] {
    let name = nameField(language: language)
    var layers: [JSONValue] = []
    if !imagery {
      layers.append(
        label(
          "housenumber", "housenumber", minzoom: 16.5, field: ["get", "housenumber"], font: regular, size: 9.5,
          color: .string(palette.houseNumber), palette: palette))
    }
    // Minor POIs (rank above 10) wait for street zoom; a POI shows its badge and name or nothing.
    layers.append(poi("poi-minor", palette, name: name, minzoom: 16, ranks: ">"))
    layers.append(poi("poi", palette, name: name, minzoom: 14, ranks: "<="))
    layers += roadNames(palette, name: name)
    if !imagery { layers.append(shields(palette)) }
    layers += waterNames(palette, name: name)
    layers += places(palette, name: name)
    return layers
  }

  /// The text of a name in `language`.
  static func nameField(language: String?) -> JSONValue {
    guard let language else { return ["coalesce", ["get", "name"], ["get", "name_int"]] }
    return [
      "coalesce", ["get", .string("name:\(language)")], ["get", .string("name_\(language)")], ["get", "name_int"],
      ["get", "name_en"], ["get", "name"],
    ]
  }

  // MARK: Layer groups

  /// POIs whose rank compares to 10 by `ranks` (`<=` or `>`).
  private static func poi(_ id: String, _ palette: LabelPalette, name: JSONValue, minzoom: Double, ranks: String)
    -> JSONValue
  {
    var icon: [JSONValue] = ["match", ["get", "class"]]
    var color: [JSONValue] = ["match", ["get", "class"]]
    for (category, classes) in BuiltinIcons.categoryClasses {
      let list = JSONValue.array(classes.map { .string($0) })
      icon += [list, .string("poi-\(category)")]
      color += [list, .string(palette.poi[category] ?? palette.place)]
    }
    icon.append("poi-generic")
    color.append(.string(palette.poi["generic"] ?? palette.place))
    return [
      "id": .string(id), "type": "symbol", "source": "openmaptiles", "source-layer": "poi",
      "minzoom": .number(minzoom),
      "filter": ["all", ["has", "name"], [.string(ranks), ["coalesce", ["get", "rank"], 30], 10]],
      "layout": [
        "symbol-sort-key": ["coalesce", ["get", "rank"], 30], "icon-image": .array(icon), "icon-size": 1,
        "text-field": name, "text-font": regular, "text-size": 11, "text-anchor": "top", "text-offset": [0, 0.75],
        "text-max-width": 8, "text-padding": 2,
      ],
      "paint": [
        "text-color": .array(color), "text-halo-color": .string(palette.halo),
        "text-halo-width": .number(1.4 * palette.haloScale),
      ],
    ]
  }

  private static func roadNames(_ palette: LabelPalette, name: JSONValue) -> [JSONValue] {
    let minor: JSONValue = ["minor", "service", "track", "tertiary", "path", "pedestrian", "residential"]
    let major: JSONValue = ["motorway", "trunk", "primary", "secondary"]
    return [
      roadName(
        "road-name-minor", classes: minor, minzoom: 14, sizes: [(14, 10), (16, 12), (18, 14)],
        color: .string(palette.road), palette: palette, name: name),
      roadName(
        "road-name-major", classes: major, minzoom: 12, sizes: [(12, 10.5), (15, 12.5), (18, 15)],
        color: ["match", ["get", "class"], ["motorway", "trunk"], .string(palette.majorRoad), .string(palette.road)],
        palette: palette, name: name),
    ]
  }

  private static func roadName(
    _ id: String, classes: JSONValue, minzoom: Double, sizes: [(Double, Double)], color: JSONValue,
    palette: LabelPalette, name: JSONValue
  ) -> JSONValue {
    [
      "id": .string(id), "type": "symbol", "source": "openmaptiles", "source-layer": "transportation_name",
      "minzoom": .number(minzoom), "filter": ["match", ["get", "class"], classes, true, false],
      "layout": [
        "symbol-placement": "line", "symbol-spacing": 350, "text-pitch-alignment": "viewport", "text-field": name,
        "text-font": regular,
        "text-size": zoomCurve(sizes), "text-max-angle": 30, "text-padding": 2,
      ],
      "paint": [
        "text-color": color, "text-halo-color": .string(palette.halo),
        "text-halo-width": .number(1.5 * palette.haloScale),
      ],
    ]
  }

  private static func shields(_ palette: LabelPalette) -> JSONValue {
    var textColor: [JSONValue] = ["match", ["get", "class"]]
    for shield in BuiltinIcons.shields {
      textColor += [.string(shield.roadClass), .string(BuiltinIcons.shieldText[shield.roadClass] ?? "#000000")]
    }
    textColor.append("#202124")
    return [
      "id": "road-shield", "type": "symbol", "source": "openmaptiles", "source-layer": "transportation_name",
      "minzoom": 9,
      "filter": [
        "all", ["has", "ref"], ["<=", ["coalesce", ["get", "ref_length"], 0], 6],
        ["match", ["get", "class"], ["motorway", "trunk", "primary"], true, false],
      ],
      "layout": [
        "symbol-placement": "line", "symbol-spacing": 450, "icon-image": ["concat", "shield-", ["get", "class"]],
        "icon-text-fit": "both", "icon-text-fit-padding": [1, 3, 1, 3], "icon-rotation-alignment": "viewport",
        "text-rotation-alignment": "viewport", "text-field": ["get", "ref"], "text-font": bold, "text-size": 10,
        "text-padding": 4,
      ],
      "paint": ["text-color": .array(textColor)],
    ]
  }

  private static func waterNames(_ palette: LabelPalette, name: JSONValue) -> [JSONValue] {
    let paint: JSONValue = [
      "text-color": .string(palette.water), "text-halo-color": .string(palette.halo),
      "text-halo-width": .number(1 * palette.haloScale),
    ]
    return [
      [
        "id": "waterway-name", "type": "symbol", "source": "openmaptiles", "source-layer": "waterway", "minzoom": 13,
        "filter": ["has", "name"],
        "layout": [
          "symbol-placement": "line", "text-field": name, "text-font": italic, "text-size": 11,
          "text-letter-spacing": 0.05,
        ],
        "paint": paint,
      ],
      [
        "id": "water-name-line", "type": "symbol", "source": "openmaptiles", "source-layer": "water_name",
        "filter": ["==", ["geometry-type"], "LineString"],
        "layout": ["symbol-placement": "line", "text-field": name, "text-font": italic, "text-size": 13],
        "paint": paint,
      ],
      [
        "id": "water-name-point", "type": "symbol", "source": "openmaptiles", "source-layer": "water_name",
        "filter": ["==", ["geometry-type"], "Point"],
        "layout": [
          "text-field": name, "text-font": italic, "text-size": zoomCurve([(10, 11), (14, 13), (18, 15)]),
          "text-max-width": 6, "text-letter-spacing": 0.05,
        ],
        "paint": paint,
      ],
    ]
  }

  private static func places(_ palette: LabelPalette, name: JSONValue) -> [JSONValue] {
    [
      place(
        "place-suburb", classes: ["suburb", "neighbourhood", "quarter"], minzoom: 11, maxzoom: 16,
        sizes: [(11, 10), (16, 12)], color: palette.suburb, palette: palette, name: name, capitals: true),
      place(
        "place-village", classes: ["village", "hamlet", "isolated_dwelling"], minzoom: 11, maxzoom: 17,
        sizes: [(11, 10.5), (16, 13)], color: palette.place, palette: palette, name: name),
      place(
        "place-town", classes: ["town"], minzoom: 9, maxzoom: 16, sizes: [(8, 11), (12, 13), (15, 15)],
        color: palette.place, palette: palette, name: name),
      place(
        "place-city", classes: ["city"], minzoom: 3, maxzoom: 15, sizes: [(4, 11), (8, 14), (12, 18), (15, 20)],
        color: palette.place, palette: palette, name: name),
      place(
        "place-state", classes: ["state", "province"], minzoom: 4, maxzoom: 9, sizes: [(4, 9), (8, 12)],
        color: palette.region, palette: palette, name: name, capitals: true),
      place(
        "place-country", classes: ["country"], minzoom: 1, maxzoom: 8, sizes: [(1, 10), (4, 13), (7, 16)],
        color: palette.region, palette: palette, name: name, font: bold),
    ]
  }

  private static func place(
    _ id: String, classes: [String], minzoom: Double, maxzoom: Double, sizes: [(Double, Double)], color: String,
    palette: LabelPalette, name: JSONValue, capitals: Bool = false, font: JSONValue = regular
  ) -> JSONValue {
    var layout = JSONObject([
      ("text-field", name), ("text-font", font), ("text-size", zoomCurve(sizes)), ("text-max-width", 7),
      ("symbol-sort-key", ["coalesce", ["get", "rank"], 30]),
    ])
    if capitals {
      layout["text-transform"] = "uppercase"
      layout["text-letter-spacing"] = 0.08
    }
    return [
      "id": .string(id), "type": "symbol", "source": "openmaptiles", "source-layer": "place",
      "minzoom": .number(minzoom), "maxzoom": .number(maxzoom),
      "filter": ["match", ["get", "class"], .array(classes.map { .string($0) }), true, false],
      "layout": .object(layout),
      "paint": [
        "text-color": .string(color), "text-halo-color": .string(palette.halo),
        "text-halo-width": .number(1.5 * palette.haloScale),
      ],
    ]
  }

  private static func label(
    _ id: String, _ sourceLayer: String, minzoom: Double, field: JSONValue, font: JSONValue, size: Double,
    color: JSONValue, palette: LabelPalette
  ) -> JSONValue {
    [
      "id": .string(id), "type": "symbol", "source": "openmaptiles", "source-layer": .string(sourceLayer),
      "minzoom": .number(minzoom),
      "layout": ["text-field": field, "text-font": font, "text-size": .number(size), "text-padding": 2],
      "paint": [
        "text-color": color, "text-halo-color": .string(palette.halo),
        "text-halo-width": .number(1.2 * palette.haloScale),
      ],
    ]
  }

  /// A value interpolated linearly over zoom through `stops` (MapLibre zoom, value).
  private static func zoomCurve(_ stops: [(Double, Double)]) -> JSONValue {
    var expression: [JSONValue] = ["interpolate", ["linear"], ["zoom"]]
    for (zoom, value) in stops { expression += [.number(zoom), .number(value)] }
    return .array(expression)
  }
}
