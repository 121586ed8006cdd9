import TesseraJSON
import TesseraNumbers

extension TileserverGLStyle {
  /// The style document a MapLibre GL JS client loads from this server, as tileserver-gl
  /// rewrites it: each `mbtiles://{id}` / `pmtiles://{id}` source of a configured data set
  /// points at that set's TileJSON (`{base}/data/{id}.json`) and, when the server has a fonts
  /// folder, `glyphs` at `{base}/fonts/{fontstack}/{range}.pbf`, a local `sprite` at
  /// `{base}/styles/{id}/sprite` (each sheet of several at `…/sprite/{name}`); everything else
  /// as written.
  package static func published(
    _ document: JSONValue, id: String, base: String, data: [String: Archive], servesFonts: Bool
  ) -> JSONValue {
    guard case .object(var style) = document else { return document }
    if case .object(var sources)? = style["sources"] {
      for (name, source) in sources.pairs {
        guard case .object(var fields) = source, let url = fields["url"]?.string, let id = dataID(url),
          let entry = servedID(id, in: data)
        else { continue }
        fields["url"] = .string("\(base)/data/\(entry).json")
        sources[name] = .object(fields)
      }
      style["sources"] = .object(sources)
    }
    if servesFonts, style["glyphs"] != nil {
      style["glyphs"] = .string("\(base)/fonts/{fontstack}/{range}.pbf")
    }
    switch style["sprite"] {
    case .string(let name)? where !isRemote(name):
      style["sprite"] = .string("\(base)/styles/\(id)/sprite")
    case .array(let sheets)?:
      style["sprite"] = .array(
        sheets.map { sheet in
          guard var fields = sheet.object, let name = fields["id"]?.string, let url = fields["url"]?.string,
            !isRemote(url)
          else { return sheet }
          fields["url"] = .string("\(base)/styles/\(id)/sprite/\(name)")
          return .object(fields)
        })
    default:
      break
    }
    return .object(style)
  }

  /// The id `/data/{id}` serves the entry a source names by (its id, else its file's name).
  static func servedID(_ id: String, in data: [String: Archive]) -> String? {
    if data[id] != nil { return id }
    return data.keys.sorted().first { data[$0]?.name == id }
  }
}
