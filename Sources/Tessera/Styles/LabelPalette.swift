import TesseraNumbers

/// The label colours of the built-in map types (CSS colours): dark grey place names on white
/// halos by day, the night style's warm tones on the land colour by night; water names blue,
/// park and POI names in their category's colour.
struct LabelPalette: Sendable {
  /// City, town and village names.
  var place: String
  /// Suburb and neighbourhood names (lighter, in capitals).
  var suburb: String
  /// Country and state names.
  var region: String
  /// Road names.
  var road: String
  /// Motorway and trunk names.
  var majorRoad: String
  var water: String
  var park: String
  var houseNumber: String
  /// The halo behind every label (the land colour at night).
  var halo: String
  /// The text colour of POI names by category (see ``BuiltinIcons/categoryClasses``).
  var poi: [String: String]
  /// Halo widths are multiplied by this (thinner over imagery, where halos are dark).
  var haloScale = 1.0

  static let light = LabelPalette(
    place: "#3c4043", suburb: "#80868b", region: "#5f6368", road: "#5f6368", majorRoad: "#4d5156", water: "#3b6fb6",
    park: "#1e7e34", houseNumber: "#9aa0a6", halo: "#ffffff",
    poi: [
      "food": "#c5561a", "shopping": "#1a67d2", "health": "#c5221f", "park": "#1e7e34", "culture": "#0e7d8f",
      "education": "#6e5a9e", "civic": "#5f6368", "transit": "#1967d2", "generic": "#70757a",
    ])

  /// After the SDK's night style: labels `#d59563`, roads `#9ca5b3`, highways `#f3d19c`,
  /// parks `#6b9a76`, water `#515c6d`-ish (lightened to read on dark water), halo `#242f3e`.
  static let dark = LabelPalette(
    place: "#d59563", suburb: "#8e97a4", region: "#b0a18c", road: "#9ca5b3", majorRoad: "#f3d19c", water: "#6e86a6",
    park: "#6b9a76", houseNumber: "#7b8593", halo: "#242f3e",
    poi: [
      "food": "#e0a36c", "shopping": "#8ab4f8", "health": "#f28b82", "park": "#6b9a76", "culture": "#78d9ec",
      "education": "#c3b5e8", "civic": "#b0b6bf", "transit": "#8ab4f8", "generic": "#aab1bb",
    ])

  /// Labels over imagery: white with a dark halo.
  static let imagery = LabelPalette(
    place: "#ffffff", suburb: "#e8eaed", region: "#ffffff", road: "#ffffff", majorRoad: "#ffffff", water: "#c6dcff",
    park: "#d8f0d0", houseNumber: "#e8eaed", halo: "#1b1b1b",
    poi: [
      "food": "#ffd3a8", "shopping": "#c6dcff", "health": "#ffc4c0", "park": "#d8f0d0", "culture": "#c2f3fb",
      "education": "#e3d9ff", "civic": "#eceff1", "transit": "#c6dcff", "generic": "#eceff1",
    ], haloScale: 0.7)

  static func palette(for type: MapType, scheme: ColorScheme) -> LabelPalette {
    if type == .hybrid || type == .satellite { return .imagery }
    return scheme == .light ? .light : .dark
  }
}
