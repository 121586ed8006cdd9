import TesseraData
import TesseraJSON
import TesseraNumbers
import TesseraRender

/// The MapLibre styles of the built-in map types, written for the OpenMapTiles schema.
///
/// Zooms here are MapLibre's (Google zoom − 1). Road widths grow exponentially with zoom like
/// Google's. Buildings appear as flat footprints from Google zoom 15; with 3D buildings on
/// they rise between Google zoom 15.6 and 16 (growing instead of popping up) and from 16 stand
/// at their OpenMapTiles `render_height` on `render_min_height`. The sources are named
/// `openmaptiles`, `imagery` and `terrain`. Labels come from ``BuiltinLabels`` with the icons
/// of ``BuiltinIcons``.
enum BuiltinStyle {
  /// Tile sizes and encoding of the raster sources, from their metadata.
  struct RasterSettings {
    var imageryTileSize = 256
    var demTileSize = 256
    var demEncoding = "mapbox"
  }

  /// The style document of `type` in `scheme` over `data`.
  static func document(
    _ type: MapType, scheme: ColorScheme, data: MapData, raster: RasterSettings, buildings3D: Bool = true,
    language: String? = nil
  ) -> JSONValue {
    let palette = MapPalette.palette(for: type, scheme: scheme)
    let labels = LabelPalette.palette(for: type, scheme: scheme)
    var sources = JSONObject()
    var layers: [JSONValue] = []
    switch type {
    case .none:
      break
    case .normal:
      sources["openmaptiles"] = ["type": "vector", "url": .string(data.tiles)]
      layers =
        baseLayers(palette, hillshade: nil) + roadLayers(palette) + buildingLayers(palette, extruded: buildings3D)
        + BuiltinLabels.layers(labels, language: language)
    case .terrain:
      sources["openmaptiles"] = ["type": "vector", "url": .string(data.tiles)]
      sources["terrain"] = [
        "type": "raster-dem", "url": .string(data.dem ?? ""), "tileSize": .number(Double(raster.demTileSize)),
        "encoding": .string(raster.demEncoding),
      ]
      // Contour lines from the same DEM, with their heights along the index lines.
      sources["contours"] = [
        "type": "vector",
        "url": .string(
          TileSourceLocator.contours(of: data.dem ?? "", encoding: DEMEncoding(rawValue: raster.demEncoding))),
        "minzoom": .number(Double(ContourSource.minimumZoom)),
      ]
      // Contour lines over the relief; their heights first among the labels (so the others
      // win where they collide).
      let contours = contourLayers(scheme)
      layers =
        baseLayers(palette, hillshade: scheme) + contours.lines + roadLayers(palette)
        + buildingLayers(palette, extruded: buildings3D) + contours.labels
        + BuiltinLabels.layers(labels, language: language)
    case .satellite, .hybrid:
      sources["imagery"] = [
        "type": "raster", "url": .string(data.imagery ?? ""), "tileSize": .number(Double(raster.imageryTileSize)),
      ]
      layers = [["id": "imagery", "type": "raster", "source": "imagery"]]
      if type == .hybrid {
        sources["openmaptiles"] = ["type": "vector", "url": .string(data.tiles)]
        layers += hybridLayers(palette) + BuiltinLabels.layers(labels, language: language, imagery: true)
      }
    }
    return [
      "version": 8, "name": .string("tessera-\(type.rawValue)-\(scheme.rawValue)"), "sources": .object(sources),
      "layers": .array(layers),
    ]
  }

  // MARK: Layers

  /// The terrain type's contour lines (from camera zoom 12, style zoom 11; index lines thicker)
  /// and their heights in metres along the index lines (from camera zoom 14), in the scheme's
  /// colours.
  private static func contourLayers(_ scheme: ColorScheme) -> (lines: [JSONValue], labels: [JSONValue]) {
    let light = scheme == .light
    let line = light ? "#c5b89f" : "#46505a"
    let index = light ? "#ad9c7e" : "#5a6570"
    let text = light ? "#8a7a5c" : "#8c98a4"
    let halo = light ? "#eceae1" : "#2a3238"
    func lines(_ id: String, isIndex: Bool, color: String, widths: (Double, Double)) -> JSONValue {
      [
        "id": .string(id), "type": "line", "source": "contours", "source-layer": "contour", "minzoom": 11,
        "filter": ["==", ["get", "index"], .bool(isIndex)],
        "paint": [
          "line-color": .string(color),
          "line-width": ["interpolate", ["linear"], ["zoom"], 11, .number(widths.0), 16, .number(widths.1)],
          "line-opacity": ["interpolate", ["linear"], ["zoom"], 11, 0.5, 13, 1],
        ],
      ]
    }
    return (
      [
        lines("contour", isIndex: false, color: line, widths: (0.4, 0.8)),
        lines("contour-index", isIndex: true, color: index, widths: (0.8, 1.4)),
      ],
      [
        [
          "id": "contour-label", "type": "symbol", "source": "contours", "source-layer": "contour", "minzoom": 13,
          "filter": ["==", ["get", "index"], true],
          "layout": [
            "symbol-placement": "line", "symbol-spacing": 200,
            "text-field": ["concat", ["to-string", ["get", "ele"]], " m"],
            "text-font": BuiltinLabels.regular, "text-size": 10, "text-pitch-alignment": "viewport",
            "text-max-angle": 60,
          ],
          "paint": ["text-color": .string(text), "text-halo-color": .string(halo), "text-halo-width": 1.2],
        ]
      ]
    )
  }

  private static func baseLayers(_ p: MapPalette, hillshade: ColorScheme?) -> [JSONValue] {
    var layers: [JSONValue] = [
      // Land covers the world only: past the poles the view shows the map's background colour,
      // as the SDK does.
      [
        "id": "land", "type": "background", "paint": ["background-color": .string(p.land)],
        "metadata": [BackgroundWithinWorld.metadataKey: true],
      ],
      fill("landcover-wood", "landcover", classes: ["wood", "forest"], color: p.wood),
      fill("landcover-grass", "landcover", classes: ["grass", "farmland", "wetland", "meadow"], color: p.grass),
      fill("landcover-sand", "landcover", classes: ["sand", "beach"], color: p.sand),
      fill("landcover-ice", "landcover", classes: ["ice", "glacier"], color: p.ice),
      fill(
        "landuse-residential", "landuse", classes: ["residential", "suburb", "neighbourhood"], color: p.residential),
      fill("landuse-commercial", "landuse", classes: ["commercial", "retail"], color: p.commercial),
      fill("landuse-industrial", "landuse", classes: ["industrial", "railway", "garages"], color: p.industrial),
      fill("landuse-hospital", "landuse", classes: ["hospital"], color: p.hospital),
      fill(
        "landuse-school", "landuse", classes: ["school", "university", "college", "kindergarten"], color: p.school),
      fill("landuse-green", "landuse", classes: ["cemetery", "stadium", "pitch", "playground"], color: p.grass),
      [
        "id": "park", "type": "fill", "source": "openmaptiles", "source-layer": "park",
        "paint": ["fill-color": .string(p.park)],
      ],
    ]
    if let scheme = hillshade {
      layers.append([
        "id": "hillshade", "type": "hillshade", "source": "terrain",
        "paint": [
          "hillshade-exaggeration": scheme == .light ? 0.55 : 0.45,
          "hillshade-shadow-color": scheme == .light ? "#5e5345" : "#0b0f14",
          "hillshade-highlight-color": scheme == .light ? "#ffffff" : "#56606b",
          "hillshade-accent-color": scheme == .light ? "#6b6152" : "#10151b",
        ],
      ])
    }
    layers += [
      [
        "id": "water", "type": "fill", "source": "openmaptiles", "source-layer": "water",
        "paint": ["fill-color": .string(p.water)],
      ],
      [
        "id": "waterway", "type": "line", "source": "openmaptiles", "source-layer": "waterway",
        "layout": ["line-cap": "round", "line-join": "round"],
        "paint": ["line-color": .string(p.water), "line-width": widths([(8, 0.5), (13, 1.5), (18, 5)])],
      ],
      fill("aeroway", "aeroway", classes: nil, color: p.aeroway, minzoom: 11),
      [
        "id": "boundary", "type": "line", "source": "openmaptiles", "source-layer": "boundary",
        "filter": ["all", ["<=", ["get", "admin_level"], 4], ["!=", ["get", "maritime"], 1]],
        "paint": [
          "line-color": .string(p.boundary), "line-width": widths([(3, 0.6), (10, 1.2), (16, 2)]),
          "line-dasharray": [3, 2],
        ],
      ],
    ]
    return layers
  }

  /// Casings under fills, minor roads under major ones; tunnels fainter.
  private static func roadLayers(_ p: MapPalette) -> [JSONValue] {
    let motorway: [(Double, Double)] = [(5, 0.6), (8, 1.1), (12, 3), (14, 5.5), (16, 10), (18, 22)]
    let primary: [(Double, Double)] = [(7, 0.4), (10, 1), (12, 2.5), (14, 4.5), (16, 8), (18, 18)]
    let secondary: [(Double, Double)] = [(9, 0.4), (12, 1.5), (14, 3.5), (16, 7), (18, 15)]
    let minor: [(Double, Double)] = [(12, 0.6), (14, 2), (16, 5), (18, 12)]
    func casing(_ stops: [(Double, Double)], _ extra: Double) -> [(Double, Double)] {
      stops.map { ($0.0, $0.1 * 1.1 + extra * min(max(($0.0 - 10) / 6, 0.3), 1)) }
    }
    return [
      road("road-minor-casing", ["minor", "service", "track"], p.minorCasing, casing(minor, 1.2), minzoom: 13),
      road("road-secondary-casing", ["secondary", "tertiary"], p.minorCasing, casing(secondary, 1.4), minzoom: 11),
      road("road-primary-casing", ["primary", "trunk"], p.primaryCasing, casing(primary, 1.6), minzoom: 9),
      road("road-motorway-casing", ["motorway"], p.motorwayCasing, casing(motorway, 1.8), minzoom: 8),
      road(
        "road-path", ["path", "pedestrian"], p.path, [(14, 1), (16, 1.6), (18, 3)], minzoom: 14, dashes: [2, 1.5]),
      road("road-minor", ["minor", "service", "track"], p.minor, minor, minzoom: 12),
      road("road-secondary", ["secondary", "tertiary"], p.primary, secondary, minzoom: 9),
      road("road-primary", ["primary", "trunk"], p.primary, primary, minzoom: 7),
      road("road-motorway", ["motorway"], p.motorway, motorway, minzoom: 5),
      road("rail", ["rail", "transit"], p.rail, [(11, 0.6), (14, 1.2), (18, 2.5)], minzoom: 11),
    ]
  }

  private static func buildingLayers(_ p: MapPalette, extruded: Bool) -> [JSONValue] {
    var footprints = JSONObject([
      ("id", "building"), ("type", "fill"), ("source", "openmaptiles"), ("source-layer", "building"), ("minzoom", 14),
      (
        "paint",
        [
          "fill-color": .string(p.building), "fill-outline-color": .string(p.buildingOutline),
          "fill-opacity": ["interpolate", ["linear"], ["zoom"], 14, 0, 14.5, 1],
        ]
      ),
    ])
    guard extruded else { return [.object(footprints)] }
    footprints["maxzoom"] = 15
    let height: JSONValue = ["coalesce", ["get", "render_height"], ["get", "height"], 10]
    let base: JSONValue = ["coalesce", ["get", "render_min_height"], ["get", "min_height"], 0]
    return [
      .object(footprints),
      [
        "id": "building-3d", "type": "fill-extrusion", "source": "openmaptiles", "source-layer": "building",
        "minzoom": 14.6,
        "paint": [
          "fill-extrusion-color": .string(p.buildingExtrusion),
          "fill-extrusion-height": ["interpolate", ["linear"], ["zoom"], 14.6, 0, 15, height],
          "fill-extrusion-base": ["interpolate", ["linear"], ["zoom"], 14.6, 0, 15, base],
        ],
      ],
    ]
  }

  /// Roads over imagery: no casings, translucent so the ground shows through.
  private static func hybridLayers(_ p: MapPalette) -> [JSONValue] {
    [
      road(
        "road-minor", ["minor", "service", "track"], "#ffffff", [(12, 0.5), (14, 1.2), (16, 2.5), (18, 6)],
        minzoom: 12, opacity: 0.45),
      road(
        "road-major", ["primary", "trunk", "secondary", "tertiary"], "#ffffff",
        [(8, 0.4), (12, 1.2), (14, 2.2), (16, 4.5), (18, 10)], minzoom: 8, opacity: 0.6),
      road(
        "road-motorway", ["motorway"], MapPalette.light.motorway, [(5, 0.6), (10, 1.4), (14, 3.5), (18, 12)],
        minzoom: 5, opacity: 0.8),
      [
        "id": "boundary", "type": "line", "source": "openmaptiles", "source-layer": "boundary",
        "filter": ["<=", ["get", "admin_level"], 4],
        "paint": ["line-color": "#ffffff", "line-opacity": 0.6, "line-width": 1.2, "line-dasharray": [3, 2]],
      ],
    ]
  }

  // MARK: Layer helpers

  private static func fill(_ id: String, _ sourceLayer: String, classes: [String]?, color: String, minzoom: Double = 0)
    -> JSONValue
  {
    var layer = JSONObject([
      ("id", .string(id)), ("type", "fill"), ("source", "openmaptiles"), ("source-layer", .string(sourceLayer)),
      ("paint", ["fill-color": .string(color)]),
    ])
    if let classes { layer["filter"] = classFilter(classes) }
    if minzoom > 0 { layer["minzoom"] = .number(minzoom) }
    return .object(layer)
  }

  private static func road(
    _ id: String, _ classes: [String], _ color: String, _ stops: [(Double, Double)], minzoom: Double,
    dashes: [Double]? = nil, opacity: Double = 1
  ) -> JSONValue {
    var paint = JSONObject([
      ("line-color", .string(color)), ("line-width", widths(stops)),
      // Tunnels are drawn faintly.
      ("line-opacity", ["match", ["get", "brunnel"], "tunnel", .number(opacity * 0.45), .number(opacity)]),
    ])
    if let dashes { paint["line-dasharray"] = .array(dashes.map { .number($0) }) }
    return [
      "id": .string(id), "type": "line", "source": "openmaptiles", "source-layer": "transportation",
      "minzoom": .number(minzoom), "filter": classFilter(classes),
      "layout": ["line-cap": .string(dashes == nil ? "round" : "butt"), "line-join": "round"], "paint": .object(paint),
    ]
  }

  private static func classFilter(_ classes: [String]) -> JSONValue {
    ["match", ["get", "class"], .array(classes.map { .string($0) }), true, false]
  }

  /// `line-width` growing exponentially (base 1.5) through `stops` (MapLibre zoom, points).
  private static func widths(_ stops: [(Double, Double)]) -> JSONValue {
    var expression: [JSONValue] = ["interpolate", ["exponential", 1.5], ["zoom"]]
    for (zoom, width) in stops { expression += [.number(zoom), .number(width)] }
    return .array(expression)
  }
}
