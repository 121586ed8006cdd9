import Dispatch
import Foundation
import TesseraData
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// `tessera inspect`: what a tile source holds, and what one tile decodes to.
enum InspectCommand: Command {
  static let name = "inspect"
  static let summary = "show a tile source's metadata, and the layers and attributes of a tile"
  static let options: [OptionSpec] = [
    .value("tile"), .value("data-root"), .value("time"), .flag("json"), .value("minzoom"), .value("maxzoom"),
    .value("format"),
  ]

  static let help = """
    usage: tessera inspect SOURCE [--tile Z/X/Y] [--time N] [--json] [--data-root DIR]

    SOURCE is an .mbtiles or .pmtiles file, a {z}/{x}/{y} folder, an http(s) URL template or
    TileJSON URL, mbtiles:// pmtiles:// file:// URLs (relative to --data-root), or demo://city.

    Prints the metadata (format, zoom range, tile count, bounds, centre, attribution, vector
    layers, DEM encoding). With --tile, also the tile: its size and, for vector tiles, each
    layer's feature count, geometry types and attribute keys; for images their size; for DEM
    tiles the height range.

    options:
      --tile Z/X/Y            the tile to decode (XYZ scheme, y = 0 at the north)
      --time N                decode the tile N times and print the median time and throughput
      --json                  print JSON
      --data-root DIR         resolve relative references against DIR (default: working folder)
      --minzoom Z, --maxzoom Z, --format F   for folders without a TileJSON
      --help                  show this text
    """

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let reference = try arguments.requirePositionals(["SOURCE"])[0]
    var folderOptions = FolderSource.Options()
    if let text = arguments.value("minzoom") {
      folderOptions.minZoom = try ValueParsers.integer(text, option: "minzoom", range: 0...30)
    }
    if let text = arguments.value("maxzoom") {
      folderOptions.maxZoom = try ValueParsers.integer(text, option: "maxzoom", range: 0...30)
    }
    if let text = arguments.value("format") { folderOptions.format = TileFormat(name: text) }
    let tile = try arguments.value("tile").map(parseTile)
    let repeats = try arguments.value("time").map { text throws(UsageError) in
      try ValueParsers.integer(text, option: "time", range: 1...10_000)
    }
    let locator = TileSourceLocator(dataRoot: arguments.value("data-root") ?? FileManagerPath.current)
    let source = try locator.open(reference, folderOptions: folderOptions)
    var report = metadataReport(source)
    var lines = metadataLines(source)
    if let tile {
      let (tileReport, tileLines) = try inspect(tile, of: source, repeats: repeats)
      report["tile"] = .object(tileReport)
      lines += tileLines
    }
    if arguments.has("json") {
      console.print(JSONValue.object(report).serialized(pretty: true))
    } else {
      for line in lines { console.print(line) }
    }
    return 0
  }

  static func parseTile(_ text: String) throws(UsageError) -> TileID {
    let parts = text.split(separator: "/").map { Int($0) }
    guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2],
      let tile = TileID(checkedZ: z, x: x, y: y)
    else {
      throw UsageError("--tile: '\(text)' is not a tile Z/X/Y with 0 ≤ X, Y < 2^Z and Z ≤ 30")
    }
    return tile
  }

  static func metadataLines(_ source: any TileSource) -> [String] {
    let m = source.metadata
    var lines = ["source: \(source.name)"]
    lines.append(
      "format: \(m.format.rawValue)  zoom: \(m.minZoom)-\(m.maxZoom)  tiles: \(m.tileCount.map(String.init) ?? "unknown")"
    )
    if let name = m.name { lines.append("name: \(name)") }
    if let description = m.description { lines.append("description: \(description)") }
    if let attribution = m.attribution { lines.append("attribution: \(attribution)") }
    if let bounds = m.bounds { lines.append("bounds: \(bounds.west),\(bounds.south),\(bounds.east),\(bounds.north)") }
    if let center = m.center {
      lines.append("center: \(center.coordinate.latitude),\(center.coordinate.longitude) z\(center.zoom)")
    }
    if let encoding = m.encoding { lines.append("encoding: \(encoding.rawValue)") }
    for layer in m.vectorLayers {
      let zooms = layer.minZoom.map { "z\($0)-\(layer.maxZoom.map(String.init) ?? "")" } ?? ""
      lines.append("vector layer \(layer.id) \(zooms) fields: \(layer.fields.keys.sorted().joined(separator: ", "))")
    }
    return lines
  }

  static func metadataReport(_ source: any TileSource) -> JSONObject {
    let m = source.metadata
    var report = JSONObject()
    report["source"] = .string(source.name)
    report["format"] = .string(m.format.rawValue)
    report["minzoom"] = .number(Double(m.minZoom))
    report["maxzoom"] = .number(Double(m.maxZoom))
    report["tileCount"] = m.tileCount.map { .number(Double($0)) } ?? .null
    if let bounds = m.bounds {
      report["bounds"] = [.number(bounds.west), .number(bounds.south), .number(bounds.east), .number(bounds.north)]
    }
    if let encoding = m.encoding { report["encoding"] = .string(encoding.rawValue) }
    report["vectorLayers"] = .array(m.vectorLayers.map { .string($0.id) })
    report["metadata"] = .object(m.raw)
    return report
  }

  static func inspect(_ tile: TileID, of source: any TileSource, repeats: Int?) throws -> (JSONObject, [String]) {
    var report = JSONObject()
    report["tile"] = .string("\(tile)")
    let fetched = try source.fetch(tile)
    let kind = TileContentKind(metadata: source.metadata)
    let decoded: DecodedTile
    var lines: [String] = []
    switch fetched {
    case .noTile:
      report["noTile"] = .bool(true)
      return (report, ["tile \(tile): no tile here"])
    case .decoded(let generated):
      decoded = generated
      lines.append("tile \(tile): generated")
    case .data(let bytes):
      report["bytes"] = .number(Double(bytes.count))
      do {
        decoded = try TileDecoder.decode(bytes, as: kind)
      } catch {
        throw TileSourceError.tileDecode(source: source.name, tile: tile, reason: error.reason)
      }
      lines.append("tile \(tile): \(bytes.count) bytes\(Gzip.isGzip(bytes) ? " (gzip)" : "")")
      if let repeats {
        var times: [Double] = []
        for _ in 0..<repeats {
          let start = DispatchTime.now()
          _ = try? TileDecoder.decode(bytes, as: kind)
          times.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
        }
        let median = times.sorted()[times.count / 2]
        report["decodeMilliseconds"] = .number(median)
        lines.append(
          "decode: median \(formatted(median)) ms over \(repeats) runs, \(formatted(Double(bytes.count) / median / 1000)) MB/s of tile bytes"
        )
      }
    }
    switch decoded {
    case .vector(let vector):
      var layers: [JSONValue] = []
      for layer in vector.layers {
        let types = Dictionary(grouping: layer.features, by: \.type.styleName).mapValues(\.count)
        let typeText = types.keys.sorted().map { "\($0) \(types[$0]!)" }.joined(separator: ", ")
        lines.append(
          "  layer \(layer.name): \(layer.features.count) features (\(typeText)), extent \(layer.extent), keys: \(layer.keys.sorted().joined(separator: ", "))"
        )
        layers.append(
          .object(
            JSONObject([
              ("name", .string(layer.name)), ("features", .number(Double(layer.features.count))),
              ("extent", .number(Double(layer.extent))), ("keys", .array(layer.keys.sorted().map(JSONValue.string))),
            ])))
      }
      report["layers"] = .array(layers)
      let total = vector.layers.reduce(0) { $0 + $1.features.count }
      lines.append("  \(vector.layers.count) layers, \(total) features")
    case .raster(let image):
      report["width"] = .number(Double(image.width))
      report["height"] = .number(Double(image.height))
      lines.append("  image \(image.width)x\(image.height)")
    case .dem(let dem):
      let range = dem.range
      report["minHeight"] = .number(Double(range.lowerBound))
      report["maxHeight"] = .number(Double(range.upperBound))
      lines.append(
        "  DEM \(dem.width)x\(dem.height), heights \(formatted(Double(range.lowerBound)))…\(formatted(Double(range.upperBound))) m"
      )
    }
    return (report, lines)
  }

  static func formatted(_ value: Double) -> String {
    JSONValue.format((value * 100).rounded() / 100)
  }
}

/// The working folder.
enum FileManagerPath {
  static var current: String { FileManager.default.currentDirectoryPath }
}
