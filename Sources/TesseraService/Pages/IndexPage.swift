import Foundation
import Tessera
import TesseraData
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// The index page `/`: every style with a rendered thumbnail and its links (viewer, TileJSON,
/// WMTS, a static image, the style document), every data set with its links (TileJSON,
/// inspector), and the Static Maps playground.
extension ServiceRouter {
  /// Where a page first shows a style: a style file's `center` and `zoom` (MapLibre zoom,
  /// 512-point tiles), else the middle of its data at zoom 1; a map type's data's centre, else
  /// where the first style file starts, else the middle of the (synthetic, unbounded) demo
  /// city at zoom 15.
  func startingView(ofStyle id: String) -> (longitude: Double, latitude: Double, zoom: Double) {
    switch configuration.styles[id] {
    case .file?:
      guard let style = configuration.styles[id], let set = try? tileSet(style, tileSize: 256, scale: 1) else {
        return (0, 0, 0)
      }
      let described = description(of: id, set)
      if let center = described.center { return (center.longitude, center.latitude, described.zoom ?? 1) }
      if let bounds = described.bounds {
        return ((bounds.west + bounds.east) / 2, (bounds.south + bounds.north) / 2, 1)
      }
      return (0, 0, 0)
    case .mapType?:
      if let tiles = configuration.tiles,
        let metadata = try? TileSourceLocator(dataRoot: configuration.dataRoot).open(tiles).metadata
      {
        if let center = metadata.center {
          return (center.coordinate.longitude, center.coordinate.latitude, max(center.zoom - 1, 0))
        }
        if let bounds = metadata.bounds {
          return ((bounds.west + bounds.east) / 2, (bounds.south + bounds.north) / 2, Double(metadata.minZoom))
        }
      }
      let files = configuration.styles.keys.sorted().filter {
        if case .file = configuration.styles[$0] { return true } else { return false }
      }
      if let first = files.first { return startingView(ofStyle: first) }
      return (0, 0, 15)
    case nil:
      return (0, 0, 0)
    }
  }

  /// Whether the index shows style `id`: map types whose imagery or DEM is not configured
  /// cannot be drawn and are left out.
  func isShownOnIndex(_ id: String) -> Bool {
    switch configuration.styles[id] {
    case .mapType(.satellite)?, .mapType(.hybrid)?: return configuration.imagery != nil
    case .mapType(.terrain)?: return configuration.dem != nil
    case .mapType?, .file?: return true
    case nil: return false
    }
  }

  /// A number as pages write it in URLs: at most 6 decimals, no trailing zeros.
  static func pageNumber(_ value: Double) -> String {
    var text = String(format: "%.6f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text == "-0" ? "0" : text
  }

  func indexPage(_ request: HTTPRequest) -> String {
    var styleCards: [String] = []
    for id in configuration.styles.keys.sorted() where isShownOnIndex(id) {
      let segment = HTML.segment(id)
      let view = startingView(ofStyle: id)
      let camera = [view.longitude, view.latitude, view.zoom].map(Self.pageNumber).joined(separator: ",")
      let staticImage = "/styles/\(segment)/static/\(camera)/320x200.png"
      let thumbnail =
        configuration.servesTileserverStatic
        ? staticImage
        : Self.centreTile(longitude: view.longitude, latitude: view.latitude, zoom: view.zoom, id: segment)
      var links = [
        ("Viewer", "/styles/\(segment)/"), ("TileJSON", "/styles/\(segment).json"),
        ("WMTS", "/styles/\(segment)/wmts.xml"),
      ]
      if configuration.servesTileserverStatic { links.append(("Static", staticImage)) }
      if case .file = configuration.styles[id] { links.append(("Style", "/styles/\(segment)/style.json")) }
      styleCards.append(
        """
        <div class="card"><a href="/styles/\(segment)/"><img src="\(HTML.escape(thumbnail))" alt="\(HTML.escape(id))" \
        width="320" height="200" loading="lazy"></a>
        <div class="body"><h3>\(HTML.escape(id))</h3><div class="links">\(Self.linkList(links))</div></div></div>
        """)
    }
    var dataRows: [String] = []
    for id in configuration.dataSets.keys.sorted() {
      let segment = HTML.segment(id)
      let metadata = (try? dataSource(id))??.metadata
      let kind =
        metadata.map { metadata in
          let format = Self.extensionName(metadata.format)
          let encoding = configuration.dataSets[id]?.encoding ?? metadata.encoding
          return (encoding.map { "\(format), \($0.rawValue) elevation" } ?? format)
            + ", zooms \(metadata.minZoom)–\(metadata.maxZoom)"
        } ?? "cannot be read"
      let links = [("Inspect", "/data/\(segment)/"), ("TileJSON", "/data/\(segment).json")]
      dataRows.append(
        "<tr><td><a href=\"/data/\(segment)/\">\(HTML.escape(id))</a></td><td class=\"muted\">\(HTML.escape(kind))</td>"
          + "<td class=\"links\">\(Self.linkList(links))</td></tr>")
    }
    let data =
      dataRows.isEmpty
      ? "" : "<h2>Data</h2>\n<table>\n\(dataRows.joined(separator: "\n"))\n</table>"
    let body = """
      <header><h1>Tessera</h1><nav><a href="/playground/">Static Maps playground</a>\
      <a href="/index.json">index.json</a><a href="/styles.json">styles.json</a>\
      \(configuration.fontsFolder != nil ? "<a href=\"/fonts.json\">fonts.json</a>" : "")</nav></header>
      <main>
      <h2>Styles</h2>
      <div class="cards">
      \(styleCards.joined(separator: "\n"))
      </div>
      \(data)
      </main>
      """
    return HTML.page(title: "Tessera", body: body)
  }

  /// Links written as `<a>` elements.
  static func linkList(_ links: [(String, String)]) -> String {
    links.map { "<a href=\"\(HTML.escape($0.1))\">\($0.0)</a>" }.joined()
  }

  /// The 256-point raster tile of style `id` holding a point (MapLibre zoom `zoom`).
  static func centreTile(longitude: Double, latitude: Double, zoom: Double, id: String) -> String {
    let z = min(max(Int(clamping: zoom.rounded()) + 1, 0), 22)
    let world = Mercator.project(
      Coordinate(latitude: min(max(latitude, -85), 85), longitude: longitude), zoom: Double(z))
    let last = (1 << z) - 1
    let x = min(max(Int(clamping: world.x / 256), 0), last)
    let y = min(max(Int(clamping: world.y / 256), 0), last)
    return "/styles/\(id)/\(z)/\(x)/\(y).png"
  }
}
