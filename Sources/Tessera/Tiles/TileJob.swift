import TesseraGeo

/// A metatile of raster tiles to render on a ``RenderPool``: which tile set (what is drawn and
/// how tiles are cut) and which block.
public struct TileJob: Sendable, Equatable {
  /// What a set of tiles draws and how: the map options every frame starts from, or a
  /// MapLibre style with the folder its relative URLs are read against, and the tile settings.
  public struct TileSet: Sendable, Equatable {
    public var template: MapOptions
    public var stylePath: String?
    public var dataRoot: String?
    public var settings: TileRenderer.Settings

    public init(
      template: MapOptions, stylePath: String? = nil, dataRoot: String? = nil, settings: TileRenderer.Settings
    ) {
      self.template = template
      self.stylePath = stylePath
      self.dataRoot = dataRoot
      self.settings = settings
    }
  }

  public var set: TileSet
  public var metatile: Metatile

  public init(set: TileSet, metatile: Metatile) {
    self.set = set
    self.metatile = metatile
  }
}
