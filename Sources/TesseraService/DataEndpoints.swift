import Foundation
import Synchronization
import TesseraData
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// tileserver-gl's data and font endpoints: `/data/{id}.json` (a data set's TileJSON),
/// `/data/{id}/{z}/{x}/{y}.{pbf|png|jpg|webp}` (its tiles as stored), `/fonts.json` and
/// `/fonts/{stack}/{start}-{end}.pbf` (glyph ranges, combined stacks merged glyph by glyph).
/// Every path segment is checked against what is configured: ids name configured data sets,
/// font names the folders under the fonts folder; no request text is joined onto a path.
extension ServiceRouter {
  /// The open archive of data set `id`; nil when no such data set is configured.
  func dataSource(_ id: String) throws(ServiceError) -> (any TileSource)? {
    guard let archive = configuration.dataSets[id] else { return nil }
    if let open = dataSources.withLock({ $0[id] }) { return open }
    let source: any TileSource
    do {
      source =
        archive.isPMTiles ? try PMTilesSource(path: archive.path) : try MBTilesSource(path: archive.path)
    } catch {
      ServiceRouter.logWarning("data '\(id)' cannot be opened: \(error)")
      throw ServiceError(status: 500, reason: "data '\(id)' cannot be read; the server's log says why")
    }
    dataSources.withLock { $0[id] = source }
    return source
  }

  /// The URL extension of a data format (tileserver-gl's names).
  static func extensionName(_ format: TileFormat) -> String {
    switch format {
    case .mvt: return "pbf"
    case .png: return "png"
    case .jpeg: return "jpg"
    case .webp: return "webp"
    case .unknown: return "bin"
    }
  }

  /// The TileJSON of data set `id`.
  func dataTileJSON(_ id: String, request: HTTPRequest) throws(ServiceError) -> JSONObject {
    guard let source = try dataSource(id), let archive = configuration.dataSets[id] else {
      throw ServiceError(status: 404, reason: "no data '\(id)'")
    }
    let metadata = source.metadata
    let name = Self.extensionName(metadata.format)
    let linked = metadata.format == .mvt ? configuration.pbfAlias ?? name : name
    var object: JSONObject = [
      "tilejson": "2.0.0", "id": .string(id), "name": .string(metadata.name ?? id), "scheme": "xyz",
      "format": .string(name), "minzoom": .number(Double(metadata.minZoom)),
      "maxzoom": .number(Double(metadata.maxZoom)),
      "tiles": tileURLs("/data/\(id)/{z}/{x}/{y}.\(linked)", request: request),
    ]
    if let encoding = archive.encoding ?? metadata.encoding { object["encoding"] = .string(encoding.rawValue) }
    if let size = archive.tileSize { object["tileSize"] = .number(Double(size)) }
    if let description = metadata.description { object["description"] = .string(description) }
    if let attribution = metadata.attribution { object["attribution"] = .string(attribution) }
    if let bounds = metadata.bounds {
      object["bounds"] = [.number(bounds.west), .number(bounds.south), .number(bounds.east), .number(bounds.north)]
    }
    if let center = metadata.center {
      object["center"] = [
        .number(center.coordinate.longitude), .number(center.coordinate.latitude), .number(center.zoom),
      ]
    }
    if !metadata.vectorLayers.isEmpty {
      object["vector_layers"] = .array(
        metadata.vectorLayers.map { layer in
          var entry: JSONObject = [
            "id": .string(layer.id),
            "fields": .object(JSONObject(layer.fields.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
          ]
          if let zoom = layer.minZoom { entry["minzoom"] = .number(Double(zoom)) }
          if let zoom = layer.maxZoom { entry["maxzoom"] = .number(Double(zoom)) }
          return .object(entry)
        })
    }
    for (key, value) in archive.tileJSON.pairs { object[key] = value }
    return object
  }

  /// `/data/{id}.json` and `/data/{id}/{z}/{x}/{y}.{format}`.
  func serveData(_ request: HTTPRequest) -> HTTPResponse {
    let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    let ifNoneMatch = request.header("If-None-Match")
    do {
      if parts.count == 2, parts[1].hasSuffix(".json") {
        let id = String(parts[1].dropLast(".json".count))
        let json = Array(JSONValue.object(try dataTileJSON(id, request: request)).serialized().utf8)
        return Self.imageResponse(json, mimeType: "application/json", headers: linkHeaders, ifNoneMatch: ifNoneMatch)
      }
      if parts.count == 6, parts[2] == "elevation" { return try elevation(request, parts: parts) }
      guard parts.count == 5 else { return .text(404, "no such endpoint: \(request.path)") }
      let id = parts[1]
      guard let source = try dataSource(id), let archive = configuration.dataSets[id] else {
        return .text(404, "no data '\(id)'")
      }
      let missing = HTTPResponse(status: archive.sparse ? 404 : 204)
      let last = parts[4]
      // `pbfAlias` may hold dots ("pbf.pict"): it is matched as a whole suffix.
      let aliased = configuration.pbfAlias.flatMap { last.hasSuffix("." + $0) ? $0 : nil }
      guard let dot = aliased.map({ last.index(last.endIndex, offsetBy: -$0.count - 1) }) ?? last.lastIndex(of: ".")
      else { return .text(400, "a tile's name is {y}.{format}") }
      let formatName = String(last[last.index(after: dot)...])
      guard let z = Int(parts[2]), let x = Int(parts[3]), let y = Int(last[..<dot]) else {
        return .text(400, "tile coordinates must be whole numbers")
      }
      let metadata = source.metadata
      let expected = Self.extensionName(metadata.format)
      guard
        formatName == expected || metadata.format == .jpeg && formatName == "jpeg"
          || metadata.format == .mvt && formatName == configuration.pbfAlias
      else {
        return .text(400, "data '\(id)' holds \(expected) tiles, not \(HeaderText.clean(formatName))")
      }
      guard (metadata.minZoom...max(metadata.minZoom, metadata.maxZoom)).contains(z) else {
        return .text(404, "zoom \(z) is outside data '\(id)' (zooms \(metadata.minZoom)…\(metadata.maxZoom))")
      }
      guard let tile = TileID(checkedZ: z, x: x, y: y) else {
        return .text(400, "tile \(z)/\(x)/\(y) is outside the pyramid")
      }
      let bytes: [UInt8]
      do {
        switch try source.fetch(tile) {
        case .data(let stored): bytes = stored
        case .noTile, .decoded: return missing
        }
      } catch {
        Self.logWarning("data '\(id)': \(error)")
        return .text(500, "the tile cannot be read; the server's log says why")
      }
      if bytes.isEmpty { return missing }
      var headers: [(String, String)] = []
      let mimeType: String
      switch metadata.format {
      case .mvt:
        mimeType = "application/x-protobuf"
        if bytes.count > 2, bytes[0] == 0x1f, bytes[1] == 0x8b { headers.append(("Content-Encoding", "gzip")) }
      case .png: mimeType = "image/png"
      case .jpeg: mimeType = "image/jpeg"
      case .webp: mimeType = "image/webp"
      case .unknown: mimeType = "application/octet-stream"
      }
      return Self.imageResponse(bytes, mimeType: mimeType, headers: headers, ifNoneMatch: ifNoneMatch)
    } catch {
      return .text(error.status, error.reason)
    }
  }

  /// The font stacks under the fonts folder: its folders' names, sorted.
  func fontNames() -> [String] {
    guard let folder = configuration.fontsFolder,
      let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
    else { return [] }
    return names.filter { name in
      var isFolder: ObjCBool = false
      return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isFolder)
        && isFolder.boolValue
    }.sorted()
  }

  /// The largest glyph range file read, and the most fonts one stack combines: a merged range
  /// (one glyph per code point) is never larger than the files read together.
  static let largestGlyphFile = 1 << 20
  static let largestStack = 8

  /// `/fonts.json` and `/fonts/{stack}/{start}-{end}.pbf`.
  func serveFonts(_ request: HTTPRequest) -> HTTPResponse {
    let ifNoneMatch = request.header("If-None-Match")
    let names = fontNames()
    if request.path == "/fonts.json" {
      let json = Array(JSONValue.array(names.map { .string($0) }).serialized().utf8)
      return Self.imageResponse(json, mimeType: "application/json", ifNoneMatch: ifNoneMatch)
    }
    let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    guard parts.count == 3, let folder = configuration.fontsFolder else {
      return .text(404, "no such endpoint: \(request.path)")
    }
    let range = parts[2]
    let bounds = range.hasSuffix(".pbf") ? range.dropLast(4).split(separator: "-") : []
    guard bounds.count == 2, let start = Int(bounds[0]), let end = Int(bounds[1]), start >= 0, start % 256 == 0,
      end == start + 255, end <= 65_535
    else { return .text(400, "a glyph range is {start}-{end}.pbf, 256 glyphs from a multiple of 256") }
    let requested = parts[1].split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard requested.count <= Self.largestStack else {
      return .text(400, "a font stack combines at most \(Self.largestStack) fonts")
    }
    // Each name must be one of the folders listed: the path is built from the listed name.
    var stacks: [String] = []
    for name in requested {
      guard let known = names.first(where: { $0 == name }) else {
        return .text(404, "no font '\(HeaderText.clean(name))'")
      }
      stacks.append(known)
    }
    let file = "\(start)-\(end).pbf"
    var contents: [[UInt8]] = []
    for stack in stacks {
      let path = folder + "/" + stack + "/" + file
      guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
        size <= Self.largestGlyphFile, let data = FileManager.default.contents(atPath: path)
      else { continue }
      contents.append(Array(data))
    }
    guard !contents.isEmpty else { return .text(404, "no glyphs \(start)-\(end) for '\(parts[1])'") }
    let body: [UInt8]
    if stacks.count == 1 {
      body = contents[0]
    } else {
      guard let merged = GlyphRanges.merge(contents, name: stacks.joined(separator: ","), range: "\(start)-\(end)")
      else { return .text(500, "the glyph files of '\(parts[1])' cannot be read") }
      body = merged
    }
    return Self.imageResponse(body, mimeType: "application/x-protobuf", ifNoneMatch: ifNoneMatch)
  }
}

/// Glyph range files (MapLibre's `glyphs.proto`: a `glyphs` message of `fontstack`s, each a
/// name, a range and `glyph`s numbered by code point) read and merged.
enum GlyphRanges {
  /// The glyphs of `files` in one font stack named `name`: each code point's glyph from the
  /// first file that has it, ordered by code point. Nil when a file is not a glyph file.
  static func merge(_ files: [[UInt8]], name: String, range: String) -> [UInt8]? {
    var glyphs: [Int: ArraySlice<UInt8>] = [:]
    for file in files {
      guard let stacks = fields(file[...]) else { return nil }
      for (number, stack) in stacks where number == 1 {
        guard let members = fields(stack) else { return nil }
        for (field, glyph) in members where field == 3 {
          guard let glyphFields = fields(glyph), let id = glyphFields.first(where: { $0.0 == 1 }) else { return nil }
          // Field 1 of a glyph is a varint: `fields` gives it as the varint's bytes.
          var index = id.1.startIndex
          guard let code = varint(id.1, at: &index) else { return nil }
          if glyphs[code] == nil { glyphs[code] = glyph }
        }
      }
    }
    var stack: [UInt8] = []
    append(field: 1, Array(name.utf8)[...], to: &stack)
    append(field: 2, Array(range.utf8)[...], to: &stack)
    for code in glyphs.keys.sorted() { append(field: 3, glyphs[code]!, to: &stack) }
    var out: [UInt8] = []
    append(field: 1, stack[...], to: &out)
    return out
  }

  /// A message's fields: length-delimited ones as their contents, varints as their bytes;
  /// nil when the bytes are not a message of those kinds (and fixed-width ones).
  static func fields(_ bytes: ArraySlice<UInt8>) -> [(Int, ArraySlice<UInt8>)]? {
    var result: [(Int, ArraySlice<UInt8>)] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
      guard let key = varint(bytes, at: &index) else { return nil }
      let number = key >> 3
      switch key & 7 {
      case 0:
        let start = index
        guard varint(bytes, at: &index) != nil else { return nil }
        result.append((number, bytes[start..<index]))
      case 1:
        guard bytes.endIndex - index >= 8 else { return nil }
        result.append((number, bytes[index..<index + 8]))
        index += 8
      case 2:
        guard let length = varint(bytes, at: &index), length >= 0, length <= bytes.endIndex - index else {
          return nil
        }
        result.append((number, bytes[index..<index + length]))
        index += length
      case 5:
        guard bytes.endIndex - index >= 4 else { return nil }
        result.append((number, bytes[index..<index + 4]))
        index += 4
      default:
        return nil
      }
    }
    return result
  }

  /// A varint at `index` (moved past it); nil when it runs past the end or beyond 56 bits.
  static func varint(_ bytes: ArraySlice<UInt8>, at index: inout Int) -> Int? {
    var value = 0
    var shift = 0
    while index < bytes.endIndex, shift < 56 {
      let byte = bytes[index]
      index += 1
      value |= Int(byte & 0x7f) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
    return nil
  }

  /// Appends a length-delimited field.
  static func append(field: Int, _ contents: ArraySlice<UInt8>, to out: inout [UInt8]) {
    writeVarint(field << 3 | 2, to: &out)
    writeVarint(contents.count, to: &out)
    out += contents
  }

  static func writeVarint(_ value: Int, to out: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      out.append(UInt8(truncatingIfNeeded: value & 0x7f | 0x80))
      value >>= 7
    }
    out.append(UInt8(truncatingIfNeeded: value))
  }
}
