import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// What the overlay readers share: the scene's ``ResourceAccess`` (the only way a field reaches
/// a file or URL), the render's cancellation, and the readers of coordinates, colours,
/// pictures and GeoJSON files, whose errors (``OverlayError``) name the field.
package struct OverlayReader {
  /// What the fields may name (files, sources, URLs).
  package let access: ResourceAccess
  /// Checked between entries.
  package let cancellation: RenderCancellation?

  package init(access: ResourceAccess, cancellation: RenderCancellation? = nil) {
    self.access = access
    self.cancellation = cancellation
  }

  /// `[[lat, lng], …]` in degrees (or one `[lat, lng]` when `single`), each checked.
  package static func coordinates(_ cursor: JSONCursor, single: Bool = false) throws -> [Coordinate] {
    if !single, let read = positions(cursor.value, latitudeFirst: true) { return read }
    let points = single ? [cursor] : try cursor.elements()
    guard points.count <= EncodedPolyline.maximumCoordinates else {
      throw OverlayError(cursor, reason: tooManyCoordinates)
    }
    return try points.map { point in
      let numbers = try point.numbers()
      let coordinate = numbers.count == 2 ? Coordinate(latitude: numbers[0], longitude: numbers[1]) : nil
      guard let coordinate, isValid(coordinate) else { throw OverlayError(point, reason: invalidCoordinate) }
      return coordinate
    }
  }

  /// Whether `coordinate` is finite, its latitude in −90…90 and its longitude within ±3600.
  static func isValid(_ coordinate: Coordinate) -> Bool {
    coordinate.latitude.isFinite && coordinate.longitude.isFinite && abs(coordinate.latitude) <= 90
      && abs(coordinate.longitude) <= OverlayCheck.maximumLongitude
  }

  /// The reasons ``coordinates(_:single:)`` gives, for checks of coordinates given as values.
  static var tooManyCoordinates: String { "more than \(EncodedPolyline.maximumCoordinates) points" }
  static let invalidCoordinate =
    "expected [latitude, longitude] with latitude in −90…90 and longitude in ±3600"

  /// A CSS colour, or nil when the field is absent.
  package static func color(_ cursor: JSONCursor) throws -> Color? {
    guard let text = try cursor.optionalString() else { return nil }
    guard let color = try? Color(css: text) else { throw OverlayError(cursor, reason: "invalid colour '\(text)'") }
    return color
  }

  /// `zIndex`, an integer in the range of a 32-bit one (default 0).
  package static func zIndex(_ entry: JSONCursor) throws -> Int {
    try entry["zIndex"].integer(default: 0, in: Int(Int32.min)...Int(Int32.max))
  }

  /// A GeoJSON line's positions `[[longitude, latitude], …]` in degrees, each checked as
  /// ``lngLat(_:)`` checks one, at most ``EncodedPolyline/maximumCoordinates`` of them.
  package static func lngLats(_ cursor: JSONCursor) throws -> [Coordinate] {
    if let read = positions(cursor.value, latitudeFirst: false) { return read }
    let points = try cursor.elements()
    guard points.count <= EncodedPolyline.maximumCoordinates else {
      throw OverlayError(cursor, reason: tooManyCoordinates)
    }
    return try points.map(lngLat)
  }

  /// The positions of an array of number pairs read straight from the values, or nil when
  /// anything is wrong (not an array, too many points, a position that is not two valid
  /// numbers, or more than two when latitude comes first): the checked readers then go
  /// through cursors and name the field. A GeoJSON position may carry an altitude.
  private static func positions(_ value: JSONValue?, latitudeFirst: Bool) -> [Coordinate]? {
    guard let points = value?.array, points.count <= EncodedPolyline.maximumCoordinates else { return nil }
    var read: [Coordinate] = []
    read.reserveCapacity(points.count)
    for point in points {
      guard let numbers = point.array, numbers.count == 2 || (!latitudeFirst && numbers.count > 2),
        let first = numbers[0].number, let second = numbers[1].number,
        numbers.dropFirst(2).allSatisfy({ $0.number?.isFinite == true })
      else { return nil }
      let coordinate =
        latitudeFirst ? Coordinate(latitude: first, longitude: second) : Coordinate(latitude: second, longitude: first)
      guard isValid(coordinate) else { return nil }
      read.append(coordinate)
    }
    return read
  }

  /// A GeoJSON position `[longitude, latitude]` in degrees, checked.
  package static func lngLat(_ cursor: JSONCursor) throws -> Coordinate {
    let numbers = try cursor.numbers()
    guard numbers.count >= 2, numbers[0].isFinite, numbers[1].isFinite, abs(numbers[1]) <= 90,
      abs(numbers[0]) <= OverlayCheck.maximumLongitude
    else {
      throw OverlayError(cursor, reason: "expected [longitude, latitude]")
    }
    return Coordinate(latitude: numbers[1], longitude: numbers[0])
  }

  /// A picture (PNG, JPEG, WebP or GIF) that `field` names, read through the access.
  package func picture(_ file: String, field: JSONCursor) throws -> RGBAImage {
    let bytes: [UInt8]
    do {
      bytes = try access.contents(file, field: field.path)
    } catch {
      throw OverlayError(field: field.source, reason: "\(error)")
    }
    do {
      return try ImageCodec.decode(bytes, source: file)
    } catch {
      throw OverlayError(field, reason: "not a readable image: \(error)")
    }
  }

  /// The features of a GeoJSON file (a FeatureCollection or one Feature) that `field` names,
  /// read through the access.
  package func features(_ file: String, field: JSONCursor) throws -> [JSONCursor] {
    let data: [UInt8]
    do {
      data = try access.contents(file, field: field.path)
    } catch {
      throw OverlayError(field: field.source, reason: "\(error)")
    }
    let path = access.provides(file) ? file : (try? access.path(file, field: field.path)) ?? file
    let root: JSONValue
    do {
      root = try JSONParser.parse(data)
    } catch {
      throw OverlayError(field: path, reason: "invalid JSON at \(error)")
    }
    let document = JSONCursor(root: root, source: path)
    switch document["type"].value?.string {
    case "FeatureCollection": return try document["features"].elements()
    case "Feature": return [document]
    default: throw OverlayError(field: path, reason: "expected a GeoJSON Feature or FeatureCollection")
    }
  }
}
