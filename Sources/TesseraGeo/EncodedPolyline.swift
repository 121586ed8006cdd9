import TesseraNumbers

/// Google's encoded polyline format (the Static Maps API's `enc:` paths, `GMSPath(fromEncodedPath:)`):
/// coordinates rounded to 1e-5 degrees, each delta zig-zag encoded in 5-bit chunks offset by 63.
public enum EncodedPolyline {
  /// A path that is not a valid encoded polyline.
  public struct DecodingError: Error, Equatable, CustomStringConvertible {
    /// The character index where decoding stopped.
    public let offset: Int
    public let reason: String

    public var description: String { "encoded polyline, character \(offset): \(reason)" }
  }

  /// The most coordinates a decoded path may hold (10 million points are refused, not decoded).
  public static let maximumCoordinates = 1_000_000

  /// The coordinates of `text`.
  public static func decode(_ text: String) throws(DecodingError) -> [Coordinate] {
    let bytes = Array(text.utf8)
    var index = 0
    var latitude = 0
    var longitude = 0
    var coordinates: [Coordinate] = []
    func value() throws(DecodingError) -> Int {
      var result = 0
      var shift = 0
      while true {
        guard index < bytes.count else { throw DecodingError(offset: index, reason: "the path ends inside a number") }
        let byte = Int(bytes[index])
        guard (63...126).contains(byte) else {
          throw DecodingError(offset: index, reason: "expected a character from '?' to '~'")
        }
        index += 1
        let chunk = byte - 63
        guard shift <= 30 else { throw DecodingError(offset: index - 1, reason: "a number is too long") }
        result |= (chunk & 0x1F) << shift
        shift += 5
        if chunk < 0x20 { break }
      }
      return (result & 1) != 0 ? ~(result >> 1) : result >> 1
    }
    while index < bytes.count {
      guard coordinates.count < maximumCoordinates else {
        throw DecodingError(offset: index, reason: "more than \(maximumCoordinates) coordinates")
      }
      latitude += try value()
      longitude += try value()
      let coordinate = Coordinate(latitude: Double(latitude) / 1e5, longitude: Double(longitude) / 1e5)
      guard abs(coordinate.latitude) <= 90 else {
        throw DecodingError(offset: index, reason: "latitude \(coordinate.latitude) is outside −90…90")
      }
      coordinates.append(coordinate)
    }
    return coordinates
  }

  /// `coordinates` encoded (rounded to 1e-5 degrees).
  public static func encode(_ coordinates: [Coordinate]) -> String {
    var output: [UInt8] = []
    var previous = (0, 0)
    func append(_ value: Int) {
      var v = value < 0 ? ~(value << 1) : value << 1
      while v >= 0x20 {
        output.append(UInt8((0x20 | (v & 0x1F)) + 63))
        v >>= 5
      }
      output.append(UInt8(v + 63))
    }
    for coordinate in coordinates {
      let latitude = Int(clamping: (coordinate.latitude * 1e5).rounded())
      let longitude = Int(clamping: (coordinate.longitude * 1e5).rounded())
      append(latitude - previous.0)
      append(longitude - previous.1)
      previous = (latitude, longitude)
    }
    return String(decoding: output, as: UTF8.self)
  }
}
