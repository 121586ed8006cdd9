import Foundation
import Tessera
import TesseraImage
import TesseraNumbers

/// The service's readers of request targets and bodies, run on a request made in memory as the
/// HTTP server would hand it over, without rendering anything (the fuzz target's entry point):
/// the route, the Static Maps reader (both steps, every custom icon failing, so nothing is
/// fetched), tileserver-gl's static reader (with the body's form or JSON options), the tile
/// address parser and the `POST /render` scene body reader; every scene that comes out has its
/// camera state worked out and its markers and overlays read, checked and fitted as a map made
/// from it would have them (``SceneContent``).
package enum ServiceReaders {
  /// The configuration requests are read under: the defaults (Google's size limits, the
  /// built-in map types as tileserver-gl styles, no keys, no map IDs).
  static let configuration = ServiceConfiguration()

  /// Reads `target` (path and query as sent) and `body` (sent with `contentType`, when given)
  /// with every reader that takes them; returns the readers that gave a scene whose content
  /// passed (`staticmap`, `tileserver-static`, `render`) and `tile` for a tile address. Errors
  /// are the readers' answers and are dropped; a reader that crashes or hangs is the finding.
  @discardableResult
  package static func exercise(target: String, body: [UInt8], contentType: String?) -> [String] {
    let configuration = Self.configuration
    let request = Self.request(target: target, body: body, contentType: contentType)
    let route = ServiceRoute(path: request.path)
    var read: [String] = []
    if (try? ServiceRouter.tileAddress(request.path)) != nil { read.append("tile") }
    // Static Maps: the query, then the scene once the icons are known (none could be fetched).
    if let query = try? StaticMapsQuery(request, configuration: configuration) {
      var fetched: [String: Result<[UInt8], ServiceError>] = [:]
      for icon in query.icons {
        fetched[icon] = .failure(ServiceError(status: 400, reason: "icon \(icon) is not fetched here"))
      }
      if let (scene, _) = try? query.scene(icons: fetched, configuration: configuration), readContent(of: scene) {
        read.append("staticmap")
      }
    }
    // tileserver-gl's static images: a configured style, the camera and size from the path,
    // the options from the query and a POST body.
    let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    if route == .tileserverStatic, let style = configuration.styles[parts[1]],
      let withBody = try? request.addingBodyArguments(),
      let query = try? TileserverQuery(
        style: style, camera: parts[3], size: parts[4], request: withBody, configuration: configuration),
      readContent(of: query.scene)
    {
      read.append(route.rawValue)
    }
    // POST /render: the body is a scene.
    if request.method == "POST" {
      _ = ImageEncoding(name: request.value("format") ?? "png")
      if let scene = try? SceneBody.scene(request.body, configuration: configuration), readContent(of: scene) {
        read.append("render")
      }
    }
    return read
  }

  /// What making a map of `scene` reads besides its style: its camera state, then its markers,
  /// overlays and my-location fix, checked as a frame checks them and, when they pass, the
  /// camera fitted to them; whether all of it passed.
  static func readContent(of scene: Scene) -> Bool {
    guard let state = try? scene.mapState(), let content = try? SceneContent(scene: scene),
      (try? content.check(limits: scene.options.contentLimits)) != nil
    else { return false }
    _ = content.fitted(state, scene: scene)
    return true
  }

  /// The request the HTTP server hands over for `target` (a `GET`, or a `POST` of `body` when
  /// there is one), split as libmicrohttpd splits it: the path before the first `?`,
  /// percent-decoded; the query cut at each `&` into keys and values at their first `=`, `+`
  /// made a space, then percent-decoded (a `%` without two hex digits after it is kept);
  /// each part ends at a decoded NUL, and its bytes are read as UTF-8 with invalid sequences
  /// replaced, as the server's C strings are.
  package static func request(target: String, body: [UInt8] = [], contentType: String? = nil) -> HTTPRequest {
    let bytes = Array(target.utf8)
    let question = bytes.firstIndex(of: UInt8(ascii: "?"))
    let path = decode(bytes[..<(question ?? bytes.endIndex)], plus: false)
    var arguments: [(key: String, value: String)] = []
    if let question {
      var pairs = bytes[(question + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
      // The server stops at the end of the query: a last empty piece is no argument.
      if pairs.last?.isEmpty == true { pairs.removeLast() }
      for pair in pairs {
        let equals = pair.firstIndex(of: UInt8(ascii: "="))
        let key = decode(pair[..<(equals ?? pair.endIndex)], plus: true)
        let value = equals.map { decode(pair[($0 + 1)...], plus: true) } ?? ""
        arguments.append((key, value))
      }
    }
    return HTTPRequest(
      method: body.isEmpty ? "GET" : "POST", path: path, arguments: arguments, targetLength: bytes.count,
      rawTarget: target, body: body, bodyTooLarge: false, client: "127.0.0.1", handle: nil,
      memoryHeaders: contentType.map { [("Content-Type", $0)] } ?? [])
  }

  /// libmicrohttpd's unescaping of a path (`plus` false) or a query key or value.
  static func decode(_ text: ArraySlice<UInt8>, plus: Bool) -> String {
    func hex(_ byte: UInt8) -> UInt8? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
      default: return nil
      }
    }
    var decoded: [UInt8] = []
    decoded.reserveCapacity(text.count)
    var index = text.startIndex
    while index < text.endIndex {
      let byte = text[index]
      if byte == UInt8(ascii: "%"), index + 2 < text.endIndex, let high = hex(text[index + 1]),
        let low = hex(text[index + 2])
      {
        decoded.append(high << 4 | low)
        index += 3
      } else {
        decoded.append(plus && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
        index += 1
      }
    }
    return String(decoding: decoded.prefix { $0 != 0 }, as: UTF8.self)
  }
}
