import Foundation
import TesseraNumbers

/// The files the pages load from `/assets/{name}`: Leaflet from Debian's `libjs-leaflet`
/// (read from its fixed folder), the rest written here. A request names one of these cases,
/// never a path.
enum PageAsset: String, CaseIterable, Sendable {
  case leafletScript = "leaflet.js"
  case leafletStyle = "leaflet.css"
  case style = "tessera.css"
  case viewerScript = "viewer.js"
  case inspectorScript = "inspector.js"
  case playgroundScript = "playground.js"

  /// Where Debian's `libjs-leaflet` puts Leaflet.
  static let leafletFolder = "/usr/share/javascript/leaflet"

  /// What the pages may load: only this server's scripts, styles, images and fetches.
  static let contentSecurityPolicy =
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
    + "object-src 'none'; base-uri 'none'; frame-ancestors 'self'"

  var contentType: String {
    switch self {
    case .leafletScript, .viewerScript, .inspectorScript, .playgroundScript: return "text/javascript; charset=utf-8"
    case .leafletStyle, .style: return "text/css; charset=utf-8"
    }
  }

  /// The file's bytes; nil when Leaflet is not installed.
  func bytes() -> [UInt8]? {
    switch self {
    case .leafletScript: return Self.installed("leaflet.js")
    case .leafletStyle: return Self.installed("leaflet.css")
    case .style: return Array(PageStyleSheet.text.utf8)
    case .viewerScript: return Array(ViewerScript.text.utf8)
    case .inspectorScript: return Array(InspectorScript.text.utf8)
    case .playgroundScript: return Array(PlaygroundScript.text.utf8)
    }
  }

  /// Whether Leaflet is installed (the viewer and inspector need it).
  static var leafletIsInstalled: Bool { FileManager.default.fileExists(atPath: leafletFolder + "/leaflet.js") }

  private static func installed(_ name: String) -> [UInt8]? {
    FileManager.default.contents(atPath: leafletFolder + "/" + name).map { Array($0) }
  }
}

/// The pages' shared style sheet.
enum PageStyleSheet {
  static let text = """
    :root { color-scheme: light dark; --accent: #1a73e8; --muted: #667; --line: #ccd; }
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    body { margin: 0; font: 15px/1.45 system-ui, "Noto Sans", sans-serif; }
    header { padding: 12px 20px; border-bottom: 1px solid var(--line); display: flex; gap: 16px; align-items: baseline; }
    header h1 { font-size: 20px; margin: 0; }
    header nav a { margin-right: 12px; }
    main { padding: 16px 20px; }
    a { color: var(--accent); }
    h2 { font-size: 17px; margin: 20px 0 10px; }
    .muted { color: var(--muted); }
    .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(280px, 1fr)); gap: 14px; }
    .card { border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
    .card img { display: block; width: 100%; height: auto; aspect-ratio: 8 / 5; background: #eef; }
    .card .body { padding: 8px 12px 12px; }
    .card h3 { margin: 0 0 4px; font-size: 16px; }
    .links a { margin-right: 10px; white-space: nowrap; }
    table { border-collapse: collapse; }
    td, th { text-align: left; padding: 3px 10px 3px 0; vertical-align: top; overflow-wrap: anywhere; }
    th { white-space: nowrap; }
    code { font: 13px ui-monospace, "Noto Sans Mono", monospace; word-break: break-all; }
    .split { display: flex; height: calc(100vh - 50px); }
    .split > .map { flex: 1 1 auto; min-width: 0; }
    .split > aside { flex: 0 0 360px; padding: 12px 16px; overflow: auto; border-left: 1px solid var(--line); }
    aside img, .result img { max-width: 100%; height: auto; display: block; border: 1px solid var(--line); }
    label { display: block; margin: 8px 0 2px; font-weight: 600; font-size: 13px; }
    input[type=text], input[type=number], select, textarea { width: 100%; font: inherit; padding: 3px 5px; }
    input[type=range] { width: 100%; }
    textarea { min-height: 54px; font: 13px ui-monospace, monospace; }
    .legend span { display: inline-block; width: 12px; height: 12px; margin-right: 6px; vertical-align: -1px; }
    .playground { display: grid; grid-template-columns: 340px 1fr; gap: 20px; }
    .notice { padding: 10px; border: 1px solid #c96; background: #fff6e5; color: #533; }

    """
}
