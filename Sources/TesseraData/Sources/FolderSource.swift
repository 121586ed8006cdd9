import Foundation
import TesseraGeo
import TesseraJSON
import TesseraNumbers

/// Tiles as files in a `{z}/{x}/{y}.ext` folder tree.
///
/// Metadata comes from a TileJSON file in the folder (`tilejson.json`, `metadata.json` or
/// `tiles.json`, whose `tiles` template may name the extension and `scheme` may say `tms`), or
/// from the options (range, format); the extension is otherwise found by looking at the files.
/// A missing file is "no tile here".
package final class FolderSource: TileSource {
  package let name: String
  package let metadata: TileSourceMetadata
  private let root: String
  private let fileExtension: String
  private let isTMS: Bool

  /// What to use when the folder has no TileJSON (or to override it).
  package struct Options: Sendable {
    package var minZoom: Int?
    package var maxZoom: Int?
    package var format: TileFormat?
    package var tms: Bool?
    package var encoding: DEMEncoding?

    package init(
      minZoom: Int? = nil, maxZoom: Int? = nil, format: TileFormat? = nil, tms: Bool? = nil,
      encoding: DEMEncoding? = nil
    ) {
      self.minZoom = minZoom
      self.maxZoom = maxZoom
      self.format = format
      self.tms = tms
      self.encoding = encoding
    }
  }

  static let tileJSONNames = ["tilejson.json", "metadata.json", "tiles.json"]
  static let knownExtensions = ["mvt", "pbf", "png", "jpg", "jpeg", "webp"]

  /// Opens a folder of tiles.
  package init(path: String, options: Options = Options()) throws(TileSourceError) {
    name = path
    root = path.hasSuffix("/") ? String(path.dropLast()) : path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw TileSourceError.open(source: path, reason: "no such folder")
    }
    var object = JSONObject()
    for candidate in FolderSource.tileJSONNames {
      guard let data = FileManager.default.contents(atPath: "\(root)/\(candidate)") else { continue }
      guard let parsed = try? JSONParser.parse(Array(data)).object else {
        throw TileSourceError.open(source: "\(root)/\(candidate)", reason: "not a JSON object")
      }
      object = parsed
      break
    }
    var fileExtension: String?
    if let template = JSONValue.object(object)["tiles"]?.array?.first?.string,
      let dot = template.lastIndex(of: "."), !template[dot...].contains("}")
    {
      fileExtension = String(template[template.index(after: dot)...])
    }
    let zoomLevels = FolderSource.zoomLevels(in: root)
    fileExtension = fileExtension ?? FolderSource.findExtension(in: root, zooms: zoomLevels)
    guard let fileExtension else {
      throw TileSourceError.open(
        source: path,
        reason: "no tiles found (expected {z}/{x}/{y}.ext files with one of \(FolderSource.knownExtensions))")
    }
    self.fileExtension = fileExtension
    var metadata = TileJSON.metadata(from: object, format: TileFormat(name: fileExtension))
    if object["minzoom"] == nil, let first = zoomLevels.first { metadata.minZoom = first }
    if object["maxzoom"] == nil, let last = zoomLevels.last { metadata.maxZoom = last }
    if let minZoom = options.minZoom { metadata.minZoom = minZoom }
    if let maxZoom = options.maxZoom { metadata.maxZoom = maxZoom }
    if let format = options.format { metadata.format = format }
    if let encoding = options.encoding { metadata.encoding = encoding }
    guard metadata.minZoom >= 0, metadata.minZoom <= metadata.maxZoom, metadata.maxZoom <= 30 else {
      throw TileSourceError.open(
        source: path, reason: "zoom range \(metadata.minZoom)...\(metadata.maxZoom) is invalid")
    }
    isTMS = options.tms ?? (JSONValue.object(object)["scheme"]?.string == "tms")
    self.metadata = metadata
  }

  package func fetch(_ tile: TileID) throws(TileSourceError) -> TileFetch {
    let row = isTMS ? tile.tmsY : tile.y
    let path = "\(root)/\(tile.z)/\(tile.x)/\(row).\(fileExtension)"
    guard let data = FileManager.default.contents(atPath: path) else {
      if FileManager.default.fileExists(atPath: path) {
        throw TileSourceError.tileRead(source: name, tile: tile, reason: "cannot read \(path)")
      }
      return .noTile
    }
    return .data(Array(data))
  }

  /// Numeric subfolder names, sorted.
  static func zoomLevels(in root: String) -> [Int] {
    ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap { Int($0) }.filter {
      (0...30).contains($0)
    }
    .sorted()
  }

  /// The extension of the first tile file found.
  static func findExtension(in root: String, zooms: [Int]) -> String? {
    for zoom in zooms {
      let columns = (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(zoom)")) ?? []
      for column in columns.sorted() {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(zoom)/\(column)")) ?? []
        for file in files.sorted() {
          let ext = (file as NSString).pathExtension.lowercased()
          if knownExtensions.contains(ext) { return ext }
        }
      }
    }
    return nil
  }

  /// How many tile files the folder holds (walks the tree).
  package func countTiles() -> Int {
    var count = 0
    for zoom in FolderSource.zoomLevels(in: root) {
      for column in (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(zoom)")) ?? [] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(zoom)/\(column)")) ?? []
        count += files.filter { $0.hasSuffix(".\(fileExtension)") }.count
      }
    }
    return count
  }
}
