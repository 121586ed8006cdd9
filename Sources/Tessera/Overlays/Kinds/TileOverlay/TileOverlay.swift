import TesseraNumbers

/// Raster tiles drawn over the map (GMSURLTileLayer, GMSTileLayer): a URL template with
/// `{x}`, `{y}` and `{z}` (`http(s)://` or a file path template), or any tile source Tessera
/// opens (`mbtiles://`, `pmtiles://`, a TileJSON). `opacity` multiplies the tiles' alpha.
public final class TileOverlay: MapOverlay {
  /// A URL template (`{x}`, `{y}`, `{z}`) or a source URL.
  public var source: String { didSet { changed() } }
  /// The tiles' size in pixels (GMSTileLayer's default 256).
  public var tileSize = 256 { didSet { changed() } }
  /// 0…1.
  public var opacity = 1.0 { didSet { changed() } }

  public init(source: String) {
    self.source = source
    super.init(kind: TileOverlayKind.self)
  }

  /// Whether `source` is a template of tile URLs rather than one source.
  var isTemplate: Bool { source.contains("{z}") }
}
