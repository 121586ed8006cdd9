import Foundation
import TesseraNumbers

/// The service's web pages: the index (`/`), a style's viewer (`/styles/{id}/`), a data set's
/// inspector (`/data/{id}/`) and the Static Maps playground (`/playground/`), with the scripts
/// and style sheets they load from `/assets/`. Pages are written by the server from its
/// configuration; they load nothing from other hosts.
extension ServiceRouter {
  func servePage(_ request: HTTPRequest) -> HTTPResponse {
    let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    let html: String
    switch parts.first {
    case nil, "index.html"?:
      guard configuration.servesFrontPage else { return .text(404, "no such endpoint: \(request.path)") }
      html = indexPage(request)
    case "styles"?:
      guard configuration.styles[parts[1]] != nil else { return .text(404, "no style '\(parts[1])'") }
      html = viewerPage(parts[1], request: request)
    case "data"?:
      guard configuration.dataSets[parts[1]] != nil else { return .text(404, "no data '\(parts[1])'") }
      do {
        html = try inspectorPage(parts[1], request: request)
      } catch {
        return .text(error.status, error.reason)
      }
    default:
      html = playgroundPage(request)
    }
    return HTTPResponse(
      status: 200,
      headers: [
        ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache"),
        ("Content-Security-Policy", PageAsset.contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
      ] + linkHeaders,
      body: Array(html.utf8))
  }

  /// `/assets/{name}`: one of the ``PageAsset`` files.
  func serveAsset(_ request: HTTPRequest) -> HTTPResponse {
    let name = String(request.path.split(separator: "/").last ?? "")
    guard let asset = PageAsset(rawValue: name) else { return .text(404, "no asset '\(HeaderText.clean(name))'") }
    guard let bytes = asset.bytes() else {
      return .text(404, "\(name) is not installed on this server (Debian package libjs-leaflet)")
    }
    return Self.imageResponse(
      bytes, mimeType: asset.contentType, headers: [("X-Content-Type-Options", "nosniff")],
      ifNoneMatch: request.header("If-None-Match"))
  }
}

/// Text made safe inside HTML.
enum HTML {
  /// `text` with `&`, `<`, `>`, `"` and `'` written as character references (for element
  /// content and quoted attribute values).
  static func escape(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      default: escaped.append(character)
      }
    }
    return escaped
  }

  /// A path segment percent-encoded for a URL inside a page.
  static func segment(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#")))
      ?? ""
  }

  /// A page: the shared head (title, style sheets) and `body`.
  static func page(title: String, body: String, styles: [PageAsset] = [], scripts: [PageAsset] = []) -> String {
    let links = ([.style] + styles).map { "<link rel=\"stylesheet\" href=\"/assets/\($0.rawValue)\">" }
    let sources = scripts.map { "<script src=\"/assets/\($0.rawValue)\"></script>" }
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(escape(title))</title>
      <link rel="icon" href="data:,">
      \(links.joined(separator: "\n"))
      </head>
      <body>
      \(body)
      \(sources.joined(separator: "\n"))
      </body>
      </html>

      """
  }

  /// A JSON document placed in a page for its script (`<script type="application/json">`): `<`
  /// is written `\u003c` so no text ends the element.
  static func data(_ id: String, _ json: String) -> String {
    "<script type=\"application/json\" id=\"\(id)\">\(json.replacingOccurrences(of: "<", with: "\\u003c"))</script>"
  }
}
