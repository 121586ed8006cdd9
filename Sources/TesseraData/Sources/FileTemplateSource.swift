import Foundation
import TesseraGeo
import TesseraNumbers

/// Tiles as local files named by a template with `{z}`, `{x}`, `{y}` (or `{-y}`) anywhere in
/// the path, e.g. `tiles/{z}-{x}-{y}.mvt`; a template without placeholders serves the same file
/// for every tile. A missing file is "no tile here".
package final class FileTemplateSource: TileSource {
  package let name: String
  package let metadata: TileSourceMetadata
  let template: String

  package init(template: String, metadata: TileSourceMetadata) {
    name = template
    self.template = template
    var metadata = metadata
    if metadata.format == .unknown {
      metadata.format = TileFormat(name: (template as NSString).pathExtension)
    }
    self.metadata = metadata
  }

  package func fetch(_ tile: TileID) throws(TileSourceError) -> TileFetch {
    guard tile.z >= metadata.minZoom, tile.z <= metadata.maxZoom else { return .noTile }
    let path = template.replacingOccurrences(of: "{z}", with: String(tile.z)).replacingOccurrences(
      of: "{x}", with: String(tile.x)
    )
    .replacingOccurrences(of: "{y}", with: String(tile.y)).replacingOccurrences(of: "{-y}", with: String(tile.tmsY))
    guard let data = FileManager.default.contents(atPath: path) else { return .noTile }
    return .data(Array(data))
  }
}
