import Foundation
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers
import TesseraRender

extension MapOverlay {
  /// The overlays of scene overlay fields (one per kind in ``OverlayKinds``: `polylines`,
  /// `polygons`, `circles`, `groundOverlays`, `tileOverlays`, `heatmaps`, `geojsonOverlays`),
  /// each checked against the limits it is drawn with; errors name `source` and the field.
  /// Files the fields name are read through `access`.
  public static func overlays(
    sceneFields: JSONValue, source: String, access: ResourceAccess, cancellation: RenderCancellation? = nil
  ) throws -> [MapOverlay] {
    let overlays = try SceneOverlays.load(
      JSONCursor(root: sceneFields, source: source), access: access, cancellation: cancellation)
    for overlay in overlays { try OverlayValidation.check(overlay) }
    return overlays
  }
}

/// The overlay fields of a scene, read through the kinds of ``OverlayKinds`` (each kind's file
/// documents its field), and `"myLocation": {"position": [LAT, LNG], "accuracy": METRES,
/// "heading": DEGREES}`. A bad field is an ``OverlayError`` naming the scene file and the
/// field's path; files are read through the scene's ``ResourceAccess``.
enum SceneOverlays {
  /// The scene's fields holding overlays, in the order they are read.
  static var sceneFields: [String] { OverlayKinds.sceneFieldNames }
  /// The fields of the entries of each scene field holding overlays: what the readers read,
  /// and what the scene warns about when it finds something else.
  static var entryFields: [String: Set<String>] {
    Dictionary(
      uniqueKeysWithValues: OverlayKinds.sceneFields.map { ($0.sceneField, $0.entryFields.union(commonEntryFields)) })
  }
  /// The fields every overlay entry may hold, whatever its kind: `title` (for the application,
  /// and what accessibility output reads) and `accessibilityLabel` (read instead of the title).
  static let commonEntryFields: Set<String> = ["title", "accessibilityLabel"]
  /// The fields of a polyline's `spans` entries and of its `dashes`.
  static var spanFields: Set<String> { PolylineKind.spanFields }
  static var dashFields: Set<String> { PolylineKind.dashFields }
  /// The fields of `myLocation`.
  static let myLocationFields: Set<String> = ["position", "accuracy", "heading"]

  /// One warning for each field of the overlay entries in `root` (and the objects inside
  /// them) that no reader reads.
  static func unknownFields(_ root: JSONCursor) throws -> [String] {
    var warnings: [String] = []
    for kind in OverlayKinds.sceneFields.sorted(by: { $0.sceneField < $1.sceneField })
    where !root[kind.sceneField].isAbsentOrNull {
      for entry in try root[kind.sceneField].elements() {
        warnings += try Scene.unknownFields(entry, known: kind.entryFields.union(commonEntryFields))
        for (field, known) in kind.nestedFields where !entry[field].isAbsentOrNull {
          if case .array? = entry[field].value {
            for element in try entry[field].elements() { warnings += try Scene.unknownFields(element, known: known) }
          } else {
            warnings += try Scene.unknownFields(entry[field], known: known)
          }
        }
      }
    }
    return warnings
  }

  /// The overlays of the scene's overlay fields, in the order of ``OverlayKinds/sceneFields``;
  /// files are read through `access`.
  static func load(_ root: JSONCursor, access: ResourceAccess, cancellation: RenderCancellation? = nil) throws
    -> [MapOverlay]
  {
    let reader = OverlayReader(access: access, cancellation: cancellation)
    var overlays: [MapOverlay] = []
    for kind in OverlayKinds.sceneFields where !root[kind.sceneField].isAbsentOrNull {
      for entry in try root[kind.sceneField].elements() {
        let read = try kind.read(entry, reader: reader)
        let title = try entry["title"].optionalString()
        let label = try entry["accessibilityLabel"].optionalString()
        for overlay in read {
          if let title { overlay.title = title }
          if let label { overlay.accessibilityLabel = label }
        }
        overlays += read
      }
    }
    return overlays
  }

  /// `[[lat, lng], …]` in degrees (or one `[lat, lng]` when `single`), each checked.
  static func coordinates(_ cursor: JSONCursor, single: Bool = false) throws -> [Coordinate] {
    try OverlayReader.coordinates(cursor, single: single)
  }

  /// `"myLocation"`, or nil when absent.
  static func myLocation(_ cursor: JSONCursor) throws -> LocationFix? {
    guard !cursor.isAbsentOrNull else { return nil }
    let position = try OverlayReader.coordinates(cursor["position"], single: true)[0]
    let heading = try cursor["heading"].optionalNumber()
    if let heading, !heading.isFinite { throw OverlayError(cursor, ".heading", reason: "expected degrees") }
    return LocationFix(
      coordinate: position, horizontalAccuracy: try cursor["accuracy"].number(default: 0, in: accuracyRange),
      heading: heading)
  }

  /// The accuracies a `myLocation` field may hold, in metres.
  static let accuracyRange = 0.0...20_000_000
}

extension LocationFix {
  /// Throws what a scene's `myLocation` field holding this fix gives, `source` naming the scene
  /// (``JSONFieldError`` for a number that is not finite or an accuracy outside 0…20,000 km,
  /// ``OverlayError`` for a position out of range), so a fix given as a value is refused as the
  /// field is.
  package func check(source: String) throws {
    for (index, value) in [coordinate.latitude, coordinate.longitude].enumerated() {
      _ = try JSONCursor(field: "myLocation.position[\(index)]", value: .number(value), source: source).number()
    }
    guard OverlayReader.isValid(coordinate) else {
      throw OverlayError(field: "\(source): myLocation.position", reason: OverlayReader.invalidCoordinate)
    }
    if let heading { _ = try JSONCursor(field: "myLocation.heading", value: .number(heading), source: source).number() }
    _ = try JSONCursor(field: "myLocation.accuracy", value: .number(horizontalAccuracy), source: source).number(
      in: SceneOverlays.accuracyRange)
  }
}
