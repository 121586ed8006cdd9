import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// Heatmaps (``HeatmapOverlay``): `"heatmaps": [{"points": [[LAT, LNG, WEIGHT?], …] | "geojson":
/// PATH, "weightProperty": "weight", "radius", "gradient": [[DENSITY, CSS], …], "opacity",
/// "intensity", "zIndex"}]`; drawn by a `heatmap` layer over a source of the points. A heatmap
/// covers its points but takes no hits.
package enum HeatmapKind: OverlayKind {
  package static let sceneField = "heatmaps"
  package static let elementKind = "heatmap"
  package static let entryFields: Set<String> = [
    "points", "geojson", "weightProperty", "radius", "gradient", "opacity", "intensity", "zIndex",
  ]
  package static let nestedFields: [(field: String, fields: Set<String>)] = []
  package static let commandLine: OverlayFlagSyntax? = OverlayFlagSyntax(
    option: "heatmap", first: ("geojson", .file),
    keys: [
      .init("radius", "radius", .number), .init("opacity", "opacity", .number),
      .init("intensity", "intensity", .number), .init("weight", "weightProperty", .text), .init("z", "zIndex", .number),
    ])

  package static func readEntry(_ entry: JSONCursor, reader: OverlayReader) throws -> HeatmapOverlay {
    var points: [HeatmapOverlay.WeightedPoint] = []
    if let file = try entry["geojson"].optionalString() {
      let property = try entry["weightProperty"].optionalString() ?? "weight"
      for feature in try reader.features(file, field: entry["geojson"]) {
        let geometry = feature["geometry"]
        guard geometry["type"].value?.string == "Point" else { continue }
        let position = try OverlayReader.lngLat(geometry["coordinates"])
        let weight = try feature["properties"][property].optionalNumber() ?? 1
        points.append(HeatmapOverlay.WeightedPoint(position, intensity: weight))
      }
    } else {
      for point in try entry["points"].elements() {
        let numbers = try point.numbers()
        guard numbers.count == 2 || numbers.count == 3, numbers.allSatisfy(\.isFinite), abs(numbers[0]) <= 90,
          abs(numbers[1]) <= OverlayCheck.maximumLongitude
        else {
          throw OverlayError(point, reason: "expected [latitude, longitude, weight?]")
        }
        points.append(
          HeatmapOverlay.WeightedPoint(
            Coordinate(latitude: numbers[0], longitude: numbers[1]), intensity: numbers.count == 3 ? numbers[2] : 1))
      }
    }
    let heatmap = HeatmapOverlay(points: points)
    heatmap.radius = try entry["radius"].number(default: 20, in: 1...500)
    heatmap.opacity = try entry["opacity"].number(default: 0.7, in: 0...1)
    heatmap.intensity = try entry["intensity"].number(default: 1, in: 0...1e6)
    if !entry["gradient"].isAbsentOrNull {
      heatmap.gradient = try entry["gradient"].elements().map { stop in
        let parts = try stop.elements()
        guard parts.count == 2, let color = try OverlayReader.color(parts[1]) else {
          throw OverlayError(stop, reason: "expected [density, colour]")
        }
        return (try parts[0].number(in: 0...1), color)
      }
      guard !heatmap.gradient.isEmpty else {
        throw OverlayError(entry, ".gradient", reason: "expected at least one stop")
      }
    }
    heatmap.zIndex = try OverlayReader.zIndex(entry)
    return heatmap
  }

  package static func validate(_ heatmap: HeatmapOverlay, _ check: OverlayCheck) throws(OverlayError) {
    try check.coordinates([heatmap.points.map(\.coordinate)], field: "points")
    try check.size(heatmap.radius, "radius")
    try check.size(heatmap.intensity, "intensity")
  }

  package static func pointCount(_ heatmap: HeatmapOverlay) -> Int { heatmap.points.count }

  package static func coordinates(_ heatmap: HeatmapOverlay) -> [Coordinate] { heatmap.points.map(\.coordinate) }

  package static func hits(_ heatmap: HeatmapOverlay, _ point: ScreenPoint, projection: Projection, tolerance: Double)
    -> Bool
  { false }

  package static func accessibilityFrame(_ heatmap: HeatmapOverlay, projection: Projection) -> ScreenRect? {
    ScreenRect(heatmap.points.map { projection.point(for: $0.coordinate) })
  }

  package static func addLayers(_ heatmap: HeatmapOverlay, to style: inout OverlayStyleBuilder) {
    let points = heatmap.points.filter { $0.intensity > 0 && $0.intensity.isFinite }
    guard !points.isEmpty, heatmap.opacity > 0, let first = heatmap.gradient.first else { return }
    let source = style.addPointSource(points.map { ($0.coordinate, $0.intensity) }, property: "weight", kind: "heat")
    // Below the first stop the first colour fades out (the utility library's colour map).
    var stops: [(density: Double, color: Color)] = []
    var faded = first.color
    faded.alpha = 0
    if first.density > 0 { stops.append((0, faded)) }
    var last = -1.0
    for stop in heatmap.gradient where stop.density > last && stop.density <= 1 {
      stops.append((max(stop.density, 0), stop.color))
      last = stop.density
    }
    if stops.count < 2 { stops.append((1, first.color)) }
    var layer = OverlayLayer(.heatmap, source: .own(source))
    layer.setHeatmapWeight(property: "weight")
    layer.setHeatmapRadius(heatmap.radius)
    layer.setHeatmapIntensity(heatmap.intensity)
    layer.setHeatmapOpacity(heatmap.opacity)
    layer.setHeatmapColor(stops)
    style.addLayer(layer)
  }

  package static func copy(_ heatmap: HeatmapOverlay) -> HeatmapOverlay {
    let copy = HeatmapOverlay(points: heatmap.points)
    copy.radius = heatmap.radius
    copy.gradient = heatmap.gradient
    copy.opacity = heatmap.opacity
    copy.intensity = heatmap.intensity
    return copy
  }
}
