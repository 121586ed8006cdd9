import Foundation
import Tessera
import TesseraJSON
import TesseraNumbers

/// The scene of a `POST /render` body (the CLI's scene format), read with inline-only access:
/// any field that names a file, a folder, a tile source or a URL — at the top level, inside the
/// `tessera` object, in a marker, an overlay or a span — is refused with 400 by the scene reader
/// itself, and the scene keeps that access for the markers and overlays read when it is drawn.
/// The map types' data, map IDs and attribution are the server's own, given to the scene by type
/// after it is read.
enum SceneBody {
  static func scene(_ body: [UInt8], configuration: ServiceConfiguration) throws(ServiceError) -> Scene {
    func bad(_ reason: String) -> ServiceError { ServiceError(status: 400, reason: reason) }
    let root: JSONValue
    do {
      root = try JSONParser.parse(body)
    } catch {
      throw bad("the body is not JSON: \(error)")
    }
    guard case .object(var fields) = root else { throw bad("the body must be a scene object") }
    if fields["attribution"] == nil { fields["attribution"] = .bool(configuration.attribution) }
    // A venue is named among the server's; the rest of the scene is read as sent.
    let indoor = try venue(fields["indoor"], configuration: configuration)
    if indoor != nil { fields["indoor"] = nil }
    var scene: Scene
    do {
      scene = try Scene.parse(.object(fields), path: ServiceConfiguration.requestName, access: .inlineOnly())
    } catch {
      throw bad("\(error)".replacingOccurrences(of: "\n", with: " "))
    }
    configuration.applyServerData(to: &scene)
    if let indoor { scene.options.indoor = indoor }
    guard scene.options.width <= Double(configuration.maxWidth),
      scene.options.height <= Double(configuration.maxHeight),
      scene.options.scale <= configuration.maxScale
    else {
      throw bad(
        "size and scale must stay within \(configuration.maxWidth)x\(configuration.maxHeight) at \(configuration.maxScale)x"
      )
    }
    return scene
  }

  /// `"indoor": {"venue": NAME, "level": N}`: one of the server's venues at that level (nil
  /// when the scene names none; `imdf` files are refused as any path is).
  static func venue(_ field: JSONValue?, configuration: ServiceConfiguration) throws(ServiceError) -> IndoorDisplay? {
    guard case .object(let indoor)? = field, let name = indoor["venue"] else { return nil }
    let known = configuration.venues.keys.sorted()
    guard let text = name.string, let venue = configuration.venues[text] else {
      throw ServiceError(
        status: 400,
        reason: "indoor.venue must name one of this server's venues"
          + (known.isEmpty ? " (it has none)" : ": \(known.joined(separator: ", "))"))
    }
    for key in indoor.keys where key != "venue" && key != "level" {
      throw ServiceError(status: 400, reason: "indoor.\(HeaderText.clean(key)): expected only venue and level")
    }
    var ordinal = 0
    if let level = indoor["level"] {
      guard let number = level.number, number == number.rounded(), abs(number) <= 200 else {
        throw ServiceError(status: 400, reason: "indoor.level must be a whole number, a level's ordinal")
      }
      ordinal = Int(clamping: number)
    }
    do {
      return try IndoorDisplay(venue: venue, ordinal: ordinal)
    } catch {
      throw ServiceError(status: 400, reason: "indoor: \(error.reason)")
    }
  }
}
