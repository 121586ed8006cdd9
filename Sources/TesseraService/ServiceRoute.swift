import TesseraNumbers

/// The endpoints of the service: what a request's path asks for. The raw value is the `route`
/// label of the metrics. Adding a case makes every `switch` over routes name it.
enum ServiceRoute: String, Sendable, CaseIterable {
  case health, readyz, metrics
  /// `/maps/api/staticmap` (the Google Static Maps API).
  case staticmap
  /// `POST /render` (a scene document).
  case render
  /// `/styles.json`.
  case styles
  /// `/styles/{id}/style.json`.
  case style
  /// `/styles/{id}/sprite[@2x].{json,png}` and `/styles/{id}/sprite/{name}[@2x].{json,png}`.
  case sprite
  /// Raster tiles `/styles/{id}[/256|/512]/{z}/{x}/{y}[@{n}x].{format}`.
  case tile
  /// TileJSON documents: `/styles/{id}.json`, `/styles/512/{id}.json`, `/index.json`,
  /// `/rendered.json`, `/data.json`.
  case tilejson
  /// `/styles/{id}/wmts.xml`.
  case wmts
  /// `/data/{id}.json`, `/data/{id}/{z}/{x}/{y}.{format}`, `/data/{id}/elevation/{z}/{x}/{y}`.
  case data
  /// `/fonts.json` and `/fonts/{stack}/{range}.pbf`.
  case fonts
  /// tileserver-gl's static images `/styles/{id}/static/{camera}/{size}`.
  case tileserverStatic = "tileserver-static"
  /// The web pages: `/` (index), `/styles/{id}/` (viewer), `/data/{id}/` (inspector),
  /// `/playground/` (Static Maps playground).
  case page
  /// The pages' scripts and style sheets, `/assets/{name}`.
  case asset
  /// Anything else (answered 404).
  case other

  /// The route `path` takes.
  init(path: String) {
    switch path {
    case "/health": self = .health
    case "/readyz": self = .readyz
    case "/metrics": self = .metrics
    case "/maps/api/staticmap": self = .staticmap
    case "/styles.json": self = .styles
    case "/render": self = .render
    case "/index.json", "/rendered.json", "/data.json": self = .tilejson
    case "/fonts.json": self = .fonts
    case "/", "/index.html", "/playground", "/playground/": self = .page
    default: self = Self.underFolder(path)
    }
  }

  /// The route of a path below `/styles`, `/data`, `/fonts` or `/assets`.
  private static func underFolder(_ path: String) -> ServiceRoute {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    let isFolder = path.hasSuffix("/")
    switch parts.first {
    case "assets"?:
      return parts.count == 2 ? .asset : .other
    case "fonts"?:
      return .fonts
    case "data"?:
      return parts.count == 2 && isFolder ? .page : .data
    case "styles"?:
      if parts.count == 2, isFolder { return .page }
      if parts.count >= 3, parts[2] == "sprite" || parts[2].hasPrefix("sprite@") || parts[2].hasPrefix("sprite.") {
        return .sprite
      }
      if parts.count == 3, parts[2] == "style.json" { return .style }
      if parts.count == 3, parts[2] == "wmts.xml" { return .wmts }
      if parts.count == 5, parts[2] == "static" { return .tileserverStatic }
      if parts.count == 2 && parts[1].hasSuffix(".json")
        || parts.count == 3 && parts[1] == "512" && parts[2].hasSuffix(".json")
      {
        return .tilejson
      }
      if parts.count == 5 || parts.count == 6 && (parts[2] == "256" || parts[2] == "512") { return .tile }
      return .other
    default:
      return .other
    }
  }
}
