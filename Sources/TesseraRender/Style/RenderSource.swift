import TesseraData
import TesseraGeo
import TesseraNumbers
import TesseraStyle

/// A style source bound to the data that serves it, with the rules that pick its tiles.
package struct RenderSource: Sendable {
  /// The style's id of the source.
  package let id: String
  package let bound: BoundSource
  package let kind: StyleSource.Kind
  /// Tile size in points at the tile's own zoom (the style's `tileSize`; 512 by default).
  package let tileSize: Int
  /// The zoom range tiles exist in (above it, the deepest tiles are overzoomed).
  package let pyramid: TilePyramid
  /// Where the data lies: tiles wholly outside are not requested (nil: everywhere).
  package let bounds: CoordinateBounds?

  /// Binds `source` as the style source `id`; `encoding` (DEM sources) defaults to the
  /// source's own, else Mapbox terrain-RGB.
  package init(
    id: String, source: any TileSource, kind: StyleSource.Kind, tileSize: Int, minZoom: Int, maxZoom: Int,
    encoding: DEMEncoding? = nil, bounds: CoordinateBounds? = nil
  ) {
    self.id = id
    self.bounds = bounds.flatMap { $0.isValid ? $0 : nil }
    let content: TileContentKind
    switch kind {
    case .vector, .geojson: content = .vector
    case .raster, .image: content = .raster
    case .rasterDEM: content = .dem(encoding ?? source.metadata.encoding ?? .mapbox)
    }
    bound = BoundSource(source, kind: content)
    self.kind = kind
    self.tileSize = tileSize
    pyramid = TilePyramid(minZoom: minZoom, maxZoom: maxZoom)
  }

  /// Whether geometry is rebuilt for overzoomed tiles (vector data, cut to each deeper tile) or
  /// the deepest tiles are drawn larger (images).
  package var reparsesOverzoomed: Bool { kind == .vector || kind == .geojson }

  /// The tiles to request: vector and DEM zooms are floored, raster zooms rounded (MapLibre
  /// Native's rule); vector tiles deeper than the source are requested at their own zoom and
  /// cut from the deepest ancestor.
  package var covering: TileCovering {
    TileCovering(
      tileSize: Double(tileSize), minZoom: pyramid.minZoom, maxZoom: reparsesOverzoomed ? 24 : pyramid.maxZoom,
      rounding: kind == .raster ? .round : .floor)
  }

  /// The tiles a camera needs; none when the ideal zoom is below the source's minimum (views
  /// smaller than one tile, below zoom 0 in tiles of this size, draw the zoom-0 tile).
  package func coveredTiles(for transform: CameraTransform) -> [CoveredTile] {
    let covering = self.covering
    guard max(covering.idealZoom(cameraZoom: transform.camera.zoom), 0) >= pyramid.minZoom else { return [] }
    let tiles = covering.tiles(for: transform)
    guard bounds != nil else { return tiles }
    return tiles.filter { holdsData($0.tile) }
  }

  /// Whether `tile` (or, deeper than the source, its ancestor at the deepest zoom) touches
  /// ``bounds``, counted in whole tiles as MapLibre counts them.
  package func holdsData(_ tile: TileID) -> Bool {
    guard let bounds else { return true }
    let data = tile.z > pyramid.maxZoom ? tile.ancestor(atZoom: pyramid.maxZoom) : tile
    let tiles = Double(data.tilesPerSide)
    let northWest = Mercator.project(Coordinate(latitude: bounds.north, longitude: bounds.west), worldSize: tiles)
    let southEast = Mercator.project(Coordinate(latitude: bounds.south, longitude: bounds.east), worldSize: tiles)
    let inRows = Double(data.y) >= northWest.y.rounded(.down) && Double(data.y) < southEast.y.rounded(.up)
    // Bounds across the antimeridian are taken to span every column.
    guard bounds.west <= bounds.east else { return inRows }
    return inRows && Double(data.x) >= northWest.x.rounded(.down) && Double(data.x) < southEast.x.rounded(.up)
  }
}

/// A tile drawn in a frame: the area it covers and the data that fills it.
package struct RenderTile: Sendable {
  /// The tile whose area is drawn.
  package let tile: TileID
  /// The world copy it is drawn in.
  package let wrap: Int
  /// The tile whose data fills it: itself, or an ancestor (overzoom, or fallback while the
  /// tile itself failed to load).
  package let dataTile: TileID
  package let content: DecodedTile
  /// For an image source: where its picture's corners lie in the tile (it is drawn as this
  /// quad rather than over the tile's square).
  package let quad: TileQuad?

  package init(tile: TileID, wrap: Int, dataTile: TileID, content: DecodedTile, quad: TileQuad? = nil) {
    self.tile = tile
    self.wrap = wrap
    self.dataTile = dataTile
    self.content = content
    self.quad = quad
  }

  /// The covered tile (area and world copy).
  package var covered: CoveredTile { CoveredTile(tile: tile, wrap: wrap) }

  /// Where the tile's area lies in its data tile's texture: (x, y) offset and (width, height)
  /// scale in 0…1 units.
  package var textureRect: (x: Double, y: Double, width: Double, height: Double) {
    let dz = tile.z - dataTile.z
    guard dz > 0 else { return (0, 0, 1, 1) }
    let scale = 1 / Double(1 << dz)
    return (
      Double(tile.x - (dataTile.x << dz)) * scale, Double(tile.y - (dataTile.y << dz)) * scale, scale, scale
    )
  }
}
