import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// Ground overlays (``GroundOverlay``): `"groundOverlays": [{"image": PATH, "bounds": [S, W, N, E]}
/// or {"image", "position": [LAT, LNG], "zoomLevel": Z, "anchor": [X, Y]}, with "bearing",
/// "opacity", "zIndex"]`; drawn by an image source and a `raster` layer.
package enum GroundOverlayKind: OverlayKind {
  package static let sceneField = "groundOverlays"
  package static let elementKind = "groundOverlay"
  package static let entryFields: Set<String> = [
    "image", "bounds", "position", "zoomLevel", "anchor", "bearing", "opacity", "zIndex",
  ]
  package static let nestedFields: [(field: String, fields: Set<String>)] = []
  package static let commandLine: OverlayFlagSyntax? = OverlayFlagSyntax(
    option: "ground-overlay", first: ("image", .file),
    keys: [
      .init("bounds", "bounds", .numbers(count: 4)), .init("at", "position", .numbers(count: 2)),
      .init("anchor", "anchor", .numbers(count: 2)), .init("zoom", "zoomLevel", .number),
      .init("bearing", "bearing", .number), .init("opacity", "opacity", .number), .init("z", "zIndex", .number),
    ],
    exactlyOneOf: ["bounds", "position"], forms: "IMAGE,bounds=S:W:N:E or IMAGE,at=LAT:LNG")

  package static func readEntry(_ entry: JSONCursor, reader: OverlayReader) throws -> GroundOverlay {
    let image = try reader.picture(try entry["image"].string(), field: entry["image"])
    let overlay: GroundOverlay
    if !entry["bounds"].isAbsentOrNull {
      let box = try entry["bounds"].numbers()
      guard box.count == 4, box.allSatisfy(\.isFinite), box[0] < box[2], abs(box[0]) <= 90, abs(box[2]) <= 90 else {
        throw OverlayError(entry, ".bounds", reason: "expected [south, west, north, east]")
      }
      overlay = GroundOverlay(
        bounds: CoordinateBounds(south: box[0], west: box[1], north: box[2], east: box[3]), icon: image)
    } else {
      let position = try OverlayReader.coordinates(entry["position"], single: true)[0]
      overlay = GroundOverlay(
        position: position, icon: image, zoomLevel: try entry["zoomLevel"].number(default: 18, in: 0...30))
    }
    if !entry["anchor"].isAbsentOrNull {
      let anchor = try entry["anchor"].elements().map { try $0.number(in: -10...10) }
      guard anchor.count == 2 else { throw OverlayError(entry, ".anchor", reason: "expected [x, y]") }
      overlay.anchor = (anchor[0], anchor[1])
    }
    overlay.bearing = try entry["bearing"].number(default: 0, in: -36_000...36_000)
    overlay.opacity = try entry["opacity"].number(default: 1, in: 0...1)
    overlay.zIndex = try OverlayReader.zIndex(entry)
    return overlay
  }

  package static func validate(_ ground: GroundOverlay, _ check: OverlayCheck) throws(OverlayError) {
    try check.coordinates([[ground.position].compactMap { $0 }], field: "position")
    try check.size(ground.opacity, "opacity")
    guard ground.bearing.isFinite, ground.zoomLevel.isFinite else {
      throw check.fail("bearing and zoomLevel must be finite")
    }
    if let bounds = ground.bounds, !bounds.isValid { throw check.fail("bounds \(bounds) are not valid") }
  }

  /// A picture: no points are made.
  package static func pointCount(_ ground: GroundOverlay) -> Int { 0 }

  package static func coordinates(_ ground: GroundOverlay) -> [Coordinate] { ground.corners ?? [] }

  package static func hits(_ ground: GroundOverlay, _ point: ScreenPoint, projection: Projection, tolerance: Double)
    -> Bool
  {
    guard let corners = ground.corners else { return false }
    return OverlayHitTest.inside(point, [(corners + corners.prefix(1)).map { projection.point(for: $0) }])
  }

  package static func accessibilityFrame(_ ground: GroundOverlay, projection: Projection) -> ScreenRect? {
    ground.corners.flatMap { ScreenRect($0.map { projection.point(for: $0) }) }
  }

  package static func addLayers(_ ground: GroundOverlay, to style: inout OverlayStyleBuilder) {
    guard let icon = ground.icon, let corners = ground.corners, ground.opacity > 0 else { return }
    let source = style.addImageSource(icon, corners: corners, name: ground.title ?? "ground overlay")
    var layer = OverlayLayer(.raster, source: .own(source))
    layer.setRasterOpacity(ground.opacity)
    layer.setRasterFadeDuration(0)
    style.addLayer(layer)
  }

  package static func copy(_ ground: GroundOverlay) -> GroundOverlay {
    let copy = GroundOverlay(
      position: ground.position ?? Coordinate(latitude: 0, longitude: 0), icon: ground.icon,
      zoomLevel: ground.zoomLevel)
    copy.position = ground.position
    copy.bounds = ground.bounds
    copy.anchor = ground.anchor
    copy.bearing = ground.bearing
    copy.opacity = ground.opacity
    return copy
  }
}
