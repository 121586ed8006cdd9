import TesseraGeo
import TesseraNumbers

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

extension TileJob.TileSet {
  /// What a tile set's sources say about it: their credits, the box their data covers (nil when
  /// a source has no bounds: the whole world) and the deepest zoom of their data.
  public struct Description: Sendable, Equatable {
    public var attribution: String?
    public var bounds: CoordinateBounds?
    public var dataMaxZoom: Int?
    /// The style's `center` and `zoom` (zoom in 512-point tiles), when it sets them.
    public var center: Coordinate?
    public var zoom: Double?

    public init(
      attribution: String? = nil, bounds: CoordinateBounds? = nil, dataMaxZoom: Int? = nil, center: Coordinate? = nil,
      zoom: Double? = nil
    ) {
      self.attribution = attribution
      self.bounds = bounds
      self.dataMaxZoom = dataMaxZoom
      self.center = center
      self.zoom = zoom
    }
  }

  /// Reads the style and opens its sources (no GL): the credits and coverage of the tiles.
  public func describe() throws -> Description {
    var options = template
    options.attribution = .sources
    let preparation = try MapPreparation(options: options, stylePath: stylePath, dataRoot: dataRoot)
    guard let renderer = preparation.styleRenderer else { return Description() }
    var seen = Set<String>()
    var credits: [String] = []
    var bounds: CoordinateBounds?
    var unbounded = false
    var maxZoom: Int?
    for id in renderer.sources.keys.sorted() {
      let metadata = renderer.sources[id]?.bound.source.metadata
      let text = MapOrnaments.plainText(renderer.style.sources[id]?.attribution ?? metadata?.attribution ?? "")
      if !text.isEmpty, seen.insert(text).inserted { credits.append(text) }
      if let box = metadata?.bounds, box.isValid {
        bounds =
          bounds.map { current in
            CoordinateBounds(
              south: min(current.south, box.south), west: min(current.west, box.west),
              north: max(current.north, box.north), east: max(current.east, box.east))
          } ?? box
      } else {
        unbounded = true
      }
      if let zoom = metadata?.maxZoom { maxZoom = max(maxZoom ?? 0, zoom) }
    }
    return Description(
      attribution: credits.isEmpty ? nil : credits.joined(separator: MapOrnaments.creditSeparator),
      bounds: unbounded ? nil : bounds,
      dataMaxZoom: maxZoom, center: renderer.style.center, zoom: renderer.style.zoom)
  }
}
