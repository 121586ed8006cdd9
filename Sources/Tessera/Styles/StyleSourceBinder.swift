import Foundation
import TesseraData
import TesseraJSON
import TesseraNumbers
import TesseraRender
import TesseraStyle
import TesseraText

/// A style source that cannot be opened.
public struct StyleSourceError: Error, Equatable, CustomStringConvertible {
  /// The style (file or name).
  public let style: String
  /// The source's id in the style.
  public let source: String
  public let reason: String

  public var description: String { "\(style): source '\(source)': \(reason)" }
}

/// Opens the data behind a style's sources.
///
/// - `url`: `mbtiles://`, `pmtiles://`, `file://`, paths, `http(s)://` templates or TileJSON,
///   `demo://city` (see ``TileSourceLocator``), relative to the data root.
/// - `tiles`: the first template; `local://X` means `<local root>/X` (MapLibre's render-test
///   fixtures), `http(s)://` is fetched, anything else is a file path template.
/// - `data` of GeoJSON sources: inline, or a file (`local://`, `file://` or a path).
/// - `url` of image sources: a PNG, JPEG or WebP file (`local://`, `file://` or a path).
///
/// The style's `minzoom`, `maxzoom`, `tileSize`, `scheme`, `encoding` and `bounds` apply over
/// what the data itself says (a TileJSON's or archive's bounds keep tiles outside from being
/// requested).
package struct StyleSourceBinder: Sendable {
  package let locator: TileSourceLocator
  /// The folder `local://` URLs name.
  package let localRoot: String?
  /// Whether a source that cannot be opened is left out (with a problem reported) rather than
  /// failing the whole style.
  package var skipsUnusableSources = false

  package init(locator: TileSourceLocator, localRoot: String? = nil) {
    self.locator = locator
    self.localRoot = localRoot
  }

  /// The render sources of every source `style` declares; throws for the first that cannot be
  /// opened, or, with ``skipsUnusableSources``, leaves it out and says why in `problems`.
  package func bind(_ style: Style, name: String) throws(StyleSourceError) -> (
    sources: [String: RenderSource], problems: [String]
  ) {
    var bound: [String: RenderSource] = [:]
    var problems: [String] = []
    for (id, source) in style.sources.sorted(by: { $0.key < $1.key }) {
      do {
        bound[id] = try bind(source)
      } catch {
        let failure = StyleSourceError(style: name, source: id, reason: error.description)
        guard skipsUnusableSources else { throw failure }
        problems.append("source '\(id)' is left out: \(error.description)")
      }
    }
    return (bound, problems)
  }

  func bind(_ source: StyleSource) throws(TileSourceError) -> RenderSource {
    let tileSource = try open(source)
    let metadata = tileSource.metadata
    let defaultMax = source.kind == .geojson ? 18 : 22
    let maxZoom = source.maxZoom ?? (source.url != nil ? metadata.maxZoom : defaultMax)
    let minZoom = source.minZoom ?? (source.url != nil ? metadata.minZoom : 0)
    let encoding: DEMEncoding? = source.kind == .rasterDEM ? DEMEncoding(rawValue: source.encoding) ?? .mapbox : nil
    return RenderSource(
      id: source.id, source: tileSource, kind: source.kind, tileSize: source.tileSize, minZoom: minZoom,
      maxZoom: max(maxZoom, minZoom), encoding: encoding,
      bounds: source.kind == .image ? nil : source.bounds ?? metadata.bounds)
  }

  private func open(_ source: StyleSource) throws(TileSourceError) -> any TileSource {
    if source.kind == .image {
      return try ImageQuadSource(path: try filePath(source.url ?? ""), corners: source.corners)
    }
    if source.kind == .geojson {
      let data: JSONValue
      if let inline = source.data {
        data = inline
      } else if let url = source.dataURL {
        data = try readJSON(url)
      } else {
        throw TileSourceError.open(source: source.id, reason: "a geojson source needs data")
      }
      var options = GeoJSONOptions()
      options.maxZoom = source.maxZoom ?? 18
      options.lineMetrics = source.lineMetrics
      options.buffer = source.buffer ?? options.buffer
      options.tolerance = source.tolerance ?? options.tolerance
      options.generateIds = source.generateIds
      if let filter = source.filter {
        options.filter = { info in
          (try? filter.evaluate(EvaluationContext(zoom: nil, feature: GeoJSONFilterFeature(info: info)))) == .bool(true)
        }
      }
      // Tiles cached between maps are keyed by what they are made of, not only the name.
      var fingerprint = JSONFingerprint(data)
      fingerprint.add(
        text: "|\(options.maxZoom)|\(options.buffer)|\(options.tolerance)|\(options.lineMetrics)"
          + "|\(options.generateIds)|\(source.filter.map { "\($0)" } ?? "")")
      return try GeoJSONSource(
        data: data, name: source.id, options: options, identity: "\(source.id)#\(fingerprint.hex)")
    }
    if let url = source.url {
      return try locator.open(url.hasPrefix("local://") ? localPath(url) : url)
    }
    guard var template = source.tiles.first else {
      throw TileSourceError.open(source: source.id, reason: "no url or tiles")
    }
    if source.isTMS { template = template.replacingOccurrences(of: "{y}", with: "{-y}") }
    var metadata = TileSourceMetadata(
      format: source.kind == .vector ? .mvt : .unknown, minZoom: source.minZoom ?? 0, maxZoom: source.maxZoom ?? 22)
    metadata.tileSize = source.tileSize
    if source.kind == .rasterDEM { metadata.encoding = DEMEncoding(rawValue: source.encoding) }
    if template.hasPrefix("http://") || template.hasPrefix("https://") {
      var options = locator.httpOptions
      options.minZoom = metadata.minZoom
      options.maxZoom = metadata.maxZoom
      options.format = source.kind == .vector ? .mvt : nil
      options.encoding = metadata.encoding
      return try HTTPTileSource(template: template, options: options)
    }
    let path: String
    if template.hasPrefix("local://") {
      path = try localPath(template)
    } else {
      path = locator.resolve(template.hasPrefix("file://") ? String(template.dropFirst(7)) : template)
    }
    return FileTemplateSource(template: path, metadata: metadata)
  }

  /// The images of the style's sprites (`NAME.json` + `NAME.png`, `NAME@2x.…` for
  /// `pixelRatio` > 1 when present), named as the style knows them, and why a sprite could not
  /// be read (its layers' patterns then draw nothing). URLs are `local://`, `file://` or paths
  /// relative to the data root.
  package func loadSprites(_ style: Style, pixelRatio: Double) -> (images: [String: SpriteImage], problems: [String]) {
    var images: [String: SpriteImage] = [:]
    var problems: [String] = []
    for sprite in style.sprites {
      do throws(TileSourceError) {
        let base = try filePath(sprite.url)
        do {
          let sheet = try SpriteSheet.load(base: base, pixelRatio: pixelRatio)
          for (name, image) in sheet.images { images[sprite.imageName(name)] = image }
          problems += sheet.problems
        } catch {
          problems.append("sprite '\(sprite.id)': \(error.description)")
        }
      } catch {
        problems.append("sprite '\(sprite.id)': \(error.description)")
      }
    }
    return (images, problems)
  }

  /// The glyphs of `style`: its `glyphs` PBF template (`local://`, `file://`, paths relative
  /// to the data root, or HTTP(S) with the tile fetcher's settings and cache), or, when it has
  /// none, `fonts` (the system's by default; shaped with HarfBuzz).
  package func glyphStore(_ style: Style, fonts: FontLibrary? = .system) -> GlyphStore {
    guard let template = style.glyphs else { return GlyphStore(loader: nil, fonts: fonts) }
    var resolved = template
    if template.hasPrefix("local://") {
      resolved = (localRoot ?? ".") + "/" + template.dropFirst("local://".count)
    } else if !template.hasPrefix("http://") && !template.hasPrefix("https://") {
      resolved = locator.resolve(template.hasPrefix("file://") ? String(template.dropFirst(7)) : template)
    }
    let bound = GlyphURLTemplate(template: resolved, http: locator.httpOptions)
    return GlyphStore(
      loader: { stack, start throws(GlyphError) in
        try bound.load(fontStack: stack, rangeStart: start).map { ($0, bound.url(fontStack: stack, rangeStart: start)) }
      }, fonts: fonts)
  }

  /// The file a `local://` URL names.
  private func localPath(_ url: String) throws(TileSourceError) -> String {
    guard let localRoot else {
      throw TileSourceError.open(source: url, reason: "local:// URLs need a local root (the render-test folder)")
    }
    return localRoot + "/" + url.dropFirst("local://".count)
  }

  /// The file a data reference names: `local://`, `file://` or a path (relative to the data
  /// root); data over HTTP is refused.
  private func filePath(_ reference: String) throws(TileSourceError) -> String {
    if reference.hasPrefix("local://") { return try localPath(reference) }
    if reference.hasPrefix("http://") || reference.hasPrefix("https://") {
      throw TileSourceError.open(source: reference, reason: "data over HTTP is not supported here; use a file")
    }
    return locator.resolve(reference.hasPrefix("file://") ? String(reference.dropFirst(7)) : reference)
  }

  private func readJSON(_ reference: String) throws(TileSourceError) -> JSONValue {
    let path = try filePath(reference)
    guard let bytes = FileManager.default.contents(atPath: path) else {
      throw TileSourceError.open(source: path, reason: "cannot read the GeoJSON file")
    }
    do {
      return try JSONParser.parse(Array(bytes))
    } catch {
      throw TileSourceError.open(source: path, reason: "invalid JSON at \(error)")
    }
  }
}

/// A GeoJSON feature as a source's `filter` reads it.
struct GeoJSONFilterFeature: StyleFeature {
  let info: GeoJSONFeatureInfo

  func property(_ key: String) -> StyleValue? {
    info.properties.last { $0.0 == key }.map { GeoJSONFilterFeature.styleValue($0.1) }
  }

  var properties: [String: StyleValue] {
    Dictionary(
      info.properties.map { ($0.0, GeoJSONFilterFeature.styleValue($0.1)) }, uniquingKeysWith: { _, new in new })
  }

  var geometryTypeName: String { info.type.styleName }

  var identifier: StyleValue? { info.id.map { .number(Double($0)) } }

  static func styleValue(_ value: FeatureValue) -> StyleValue {
    switch value {
    case .string(let text): return .string(text)
    case .number(let number): return .number(number)
    case .bool(let flag): return .bool(flag)
    case .json(let json): return StyleValue(json: json)
    }
  }
}
