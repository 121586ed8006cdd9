import TesseraNumbers

/// The colours of the built-in map types (CSS colours), light and dark: a calm, Google-like
/// base map where parks, water and major roads stand out from neutral land.
struct MapPalette: Sendable {
  var land: String
  var residential: String
  var commercial: String
  var industrial: String
  var hospital: String
  var school: String
  var park: String
  var wood: String
  var grass: String
  var sand: String
  var ice: String
  var water: String
  var aeroway: String
  var building: String
  var buildingOutline: String
  /// 3D buildings (lit by the style's light, so walls come out darker).
  var buildingExtrusion: String
  var motorway: String
  var motorwayCasing: String
  var primary: String
  var primaryCasing: String
  var minor: String
  var minorCasing: String
  var path: String
  var rail: String
  var boundary: String

  /// The normal type in daylight.
  static let light = MapPalette(
    land: "#f3f2ef", residential: "#eeedea", commercial: "#f7ede3", industrial: "#eceae7", hospital: "#f9e3e1",
    school: "#eee9f3", park: "#c6e7c1", wood: "#cfe6c4", grass: "#d6ecce", sand: "#f4ecd6", ice: "#ffffff",
    water: "#9fc6f5", aeroway: "#e6e6ec", building: "#e8e6e2", buildingOutline: "#dcd9d4", buildingExtrusion: "#eceae6",
    motorway: "#fcd96c",
    motorwayCasing: "#e3ad3f", primary: "#ffffff", primaryCasing: "#d0d3d8", minor: "#ffffff", minorCasing: "#e0e2e5",
    path: "#c9c4bd", rail: "#b9b9bd", boundary: "#9e9cab")

  /// The normal type in the dark scheme (night colours of the SDK's dark mode).
  static let dark = MapPalette(
    land: "#242f3e", residential: "#27323f", commercial: "#2b3341", industrial: "#29303c", hospital: "#33303a",
    school: "#2b3043", park: "#263c3f", wood: "#25393a", grass: "#273b3b", sand: "#333733", ice: "#3b4656",
    water: "#17263c", aeroway: "#2c3441", building: "#2e3948", buildingOutline: "#222b37", buildingExtrusion: "#3a4658",
    motorway: "#746855",
    motorwayCasing: "#1f2835", primary: "#3f4856", primaryCasing: "#212a37", minor: "#38414e", minorCasing: "#212a37",
    path: "#4b5563", rail: "#4f5866", boundary: "#4b6878")

  /// The terrain type: softer, earthier land under the relief.
  static let terrainLight = MapPalette(
    land: "#eceae1", residential: "#e8e6dd", commercial: "#efe6da", industrial: "#e6e3dc", hospital: "#f0e0dc",
    school: "#e8e3eb", park: "#cde3c0", wood: "#c7dfb8", grass: "#d5e7c6", sand: "#efe5ca", ice: "#ffffff",
    water: "#a7c9ec", aeroway: "#e2e1e2", building: "#dedbd3", buildingOutline: "#d0ccc3", buildingExtrusion: "#e4e1d9",
    motorway: "#f7d98b",
    motorwayCasing: "#d7b35e", primary: "#fdfcf8", primaryCasing: "#cfcbc2", minor: "#fbfaf6", minorCasing: "#d6d2ca",
    path: "#c2baa8", rail: "#b4b0a8", boundary: "#9a95a3")

  static let terrainDark = MapPalette(
    land: "#2a3238", residential: "#2b333a", commercial: "#2e343c", industrial: "#2c3239", hospital: "#343239",
    school: "#2e3240", park: "#2b3f3a", wood: "#2a3d36", grass: "#2c3f39", sand: "#393a33", ice: "#414b57",
    water: "#1a2b40", aeroway: "#30363f", building: "#333b45", buildingOutline: "#262d36", buildingExtrusion: "#3d4653",
    motorway: "#6f6552",
    motorwayCasing: "#222a33", primary: "#434a55", primaryCasing: "#242b34", minor: "#3b424d", minorCasing: "#242b34",
    path: "#505866", rail: "#525a66", boundary: "#4f6a7a")

  static func palette(for type: MapType, scheme: ColorScheme) -> MapPalette {
    switch (type, scheme) {
    case (.terrain, .light): return .terrainLight
    case (.terrain, .dark): return .terrainDark
    case (_, .light): return .light
    case (_, .dark): return .dark
    }
  }
}
