import Foundation
import TesseraGeo
import TesseraNumbers

/// Tiles as local files named by a template with `{z}`, `{x}`, `{y}` (or `{-y}`) anywhere in
/// the path, e.g. `tiles/{z}-{x}-{y}.mvt`; a template without placeholders serves the same file
/// for every tile. A missing file is "no tile here".
public final class FileTemplateSource: TileSource {
  public let name: String
  public let metadata: TileSourceMetadata
  let template: String

  public init(template: String, metadata: TileSourceMetadata) {
    name = template
    self.template = template
    var metadata = metadata
    if metadata.format == .unknown {
      metadata.format = TileFormat(name: (template as NSString).pathExtension)
    }
    self.metadata = metadata
  }

  public func fetch(_ tile: TileID) throws(TileSourceError) -> TileFetch {
    guard tile.z >= metadata.minZoom, tile.z <= metadata.maxZoom else { return .noTile }
    let path = template.replacingOccurrences(of: "{z}", with: String(tile.z)).replacingOccurrences(
      of: "{x}", with: String(tile.x)
    )
    .replacingOccurrences(of: "{y}", with: String(tile.y)).replacingOccurrences(of: "{-y}", with: String(tile.tmsY))
    guard let data = FileManager.default.contents(atPath: path) else { return .noTile }
    return .data(Array(data))
  }
}
