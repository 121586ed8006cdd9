import Foundation
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraRender

/// Why a tile cannot be rendered.
public struct TileRenderError: Error, Equatable, CustomStringConvertible {
  public let description: String

  public init(description: String) { self.description = description }
}

/// Renders raster tiles of the XYZ pyramid (web Mercator, rows from the north) from a map's
/// style or map type, as tileserver-gl serves them: tiles of 256 or 512 pixels at scale 1–4.
///
/// Tiles are drawn a metatile at a time (``Metatile``: a block of tiles in one frame, then cut)
/// with a buffer of ``Settings/buffer`` points around the block, so that lines, halos and icons
/// near the block's edges draw as in one large map. Labels are never cut: a label or icon whose
/// box would cross the block's outer edge is left out (``TileCuts``), which depends only on
/// the data and the camera, so the neighbouring block, rendered on another machine or later,
/// leaves out the same labels. Inside a block tile edges cut nothing, as its tiles are pieces
/// of one picture.
///
/// Not thread-safe: one renderer per thread (each holds GL maps on its device).
public final class TileRenderer {
  /// How tiles are drawn.
  public struct Settings: Sendable, Equatable {
    /// Tile side in points: 256 or 512.
    public var tileSize: Int
    /// Pixels per point: 1…4 (`@2x` tiles are 512 pixels for a 256-point tile).
    public var scale: Int
    /// Tiles per metatile side, a power of two (1 renders tile by tile).
    public var metatile: Int
    /// Points drawn around a metatile and thrown away, so edges draw as inside a larger map.
    public var buffer: Int

    /// Defaults: 256-point tiles at scale 1 in metatiles of 2×2 with a 64-point buffer (2×2
    /// rendered the Monaco pyramid fastest at 256 and 512 points, with the lowest first-tile
    /// latency but for single tiles and a third of the memory of 8×8; see BENCHMARKS.md).
    public init(tileSize: Int = 256, scale: Int = 1, metatile: Int = 2, buffer: Int = 64) {
      self.tileSize = tileSize
      self.scale = scale
      self.metatile = metatile
      self.buffer = buffer
    }

    /// Google zoom of a tile zoom level: the world is 2^z tiles of `tileSize` points.
    public func googleZoom(_ z: Int) -> Double { Double(z) + log2(Double(tileSize) / 256) }

    /// The highest tile zoom the camera model reaches (Google zoom 22).
    public var maxZoom: Int { Int(clamping: CameraLimits.maximumZoomLevel - log2(Double(tileSize) / 256)) }

    /// Checks the values; the error says which is wrong.
    public func validate() throws(TileRenderError) {
      guard tileSize == 256 || tileSize == 512 else {
        throw TileRenderError(description: "tile size must be 256 or 512, found \(tileSize)")
      }
      guard (1...4).contains(scale) else { throw TileRenderError(description: "scale must be 1…4, found \(scale)") }
      guard metatile >= 1, metatile <= 16, metatile & (metatile - 1) == 0 else {
        throw TileRenderError(description: "metatile must be 1, 2, 4, 8 or 16 tiles a side, found \(metatile)")
      }
      guard (0...512).contains(buffer) else {
        throw TileRenderError(description: "buffer must be 0…512 points, found \(buffer)")
      }
      let side = (metatile * tileSize + 2 * buffer) * scale
      guard side <= 8192 else {
        throw TileRenderError(
          description:
            "a metatile of \(metatile)×\(metatile) tiles of \(tileSize) at scale \(scale) is \(side) pixels a side; at most 8192"
        )
      }
    }
  }

  public let settings: Settings
  /// The map options every frame starts from (map type, data, language…).
  public let template: MapOptions
  /// The MapLibre style drawn instead of the map type, and the folder its relative URLs are
  /// read against.
  public let stylePath: String?
  public let dataRoot: String?
  let device: GLDevice
  let tileLoader: TileLoader
  /// Maps by frame size in points (metatiles at low zooms and near the poles differ).
  private var maps: [SIMD2<Int>: Map] = [:]
  /// The tiles of the metatile drawn last for ``render(_:)-(TileID)``, which hands out its
  /// other tiles without drawing them again.
  private var lastMetatile: (metatile: Metatile, tiles: [TileID: RGBAImage])?

  /// A renderer drawing what `template` describes, or the style at `stylePath` (its size and
  /// camera are replaced for each metatile; attribution is left off tiles) on `device`.
  public init(
    template: MapOptions, stylePath: String? = nil, dataRoot: String? = nil, settings: Settings = Settings(),
    device: GLDevice, tileLoader: TileLoader? = nil
  ) throws(TileRenderError) {
    try settings.validate()
    var options = template
    options.attribution = .off
    options.showsScaleBar = false
    // The pyramid's first and last rows lie beyond Google's 85°.
    try? options.limits.setLatitudeLimit(Mercator.maxLatitude)
    self.template = options
    self.stylePath = stylePath
    self.dataRoot = dataRoot
    self.settings = settings
    self.device = device
    self.tileLoader = tileLoader ?? TileLoader(cache: TileCache(budget: template.tileCacheBytes))
  }

  /// Renders the tiles of `metatile` (whose size must be the settings' metatile or smaller
  /// where the zoom level is smaller), each `tileSize × scale` pixels, straight alpha.
  public func render(_ metatile: Metatile) throws -> [TileID: RGBAImage] {
    guard metatile.z <= settings.maxZoom else {
      throw TileRenderError(
        description:
          "zoom \(metatile.z) is beyond the deepest tile zoom \(settings.maxZoom) for \(settings.tileSize)-point tiles")
    }
    let tile = Double(settings.tileSize)
    let buffer = Double(settings.buffer)
    let blockSide = Double(metatile.size) * tile
    let worldSize = Double(1 << metatile.z) * tile
    // The block's centre in world points. Tile cameras reach Web Mercator's edge (the
    // template's latitude limit), so any block's centre is reached; were it not, the camera
    // would stop at the nearest whole world point it reaches and the frame be made taller so
    // that it still holds the block at whole points.
    let centre = WorldPoint(x: Double(metatile.x) * tile + blockSide / 2, y: Double(metatile.y) * tile + blockSide / 2)
    let limit = Mercator.project(
      Coordinate(latitude: template.limits.latitudeLimit, longitude: 0), worldSize: worldSize
    ).y.rounded(.up)
    let targetY = min(max(centre.y, limit), worldSize - limit)
    let camera = try Camera(
      target: Mercator.unproject(WorldPoint(x: centre.x, y: targetY), worldSize: worldSize),
      zoom: settings.googleZoom(metatile.z), limits: template.limits)
    let offset = centre.y - targetY
    guard abs(offset) <= 2048 else {
      throw TileRenderError(
        description: "metatile \(metatile) lies beyond 85° latitude, where the camera does not reach at this zoom")
    }
    let frameWidth = blockSide + 2 * buffer
    let frameHeight = blockSide + 2 * buffer + 2 * abs(offset)
    // The block's top-left corner in frame points (whole numbers).
    let left = buffer
    let top = buffer + abs(offset) + offset
    let map = try self.map(width: Int(clamping: frameWidth), height: Int(clamping: frameHeight))
    map.camera = camera
    map.tileCuts = TileCuts(
      vertical: [left, left + blockSide], horizontal: [top, top + blockSide])
    let image = try map.snapshot().image
    let scale = settings.scale
    let side = settings.tileSize * scale
    var tiles: [TileID: RGBAImage] = [:]
    for id in metatile.tiles {
      let x = Int(clamping: ((left + Double(id.x - metatile.x) * tile) * Double(scale)).rounded())
      let y = Int(clamping: ((top + Double(id.y - metatile.y) * tile) * Double(scale)).rounded())
      tiles[id] = image.cropped(x: x, y: y, width: side, height: side)
    }
    return tiles
  }

  /// The credits of what the tiles draw (the sources' attribution), or nil.
  public func attribution() throws -> String? {
    var options = template
    options.width = 64
    options.height = 64
    options.attribution = .sources
    let map = try Map(
      preparation: MapPreparation(options: options, stylePath: stylePath, dataRoot: dataRoot, tileLoader: tileLoader),
      device: device)
    return map.attributionText
  }

  /// A renderer on a new device for `gpu` (see ``GPUSelection``); otherwise as
  /// ``init(template:stylePath:dataRoot:settings:device:tileLoader:)``.
  public convenience init(
    template: MapOptions, stylePath: String? = nil, dataRoot: String? = nil, settings: Settings = Settings(),
    gpu: GPUSelection = .auto, tileLoader: TileLoader? = nil
  ) throws {
    try settings.validate()
    let device = try GLDevice(gpu: gpu)
    device.releaseContext()
    try self.init(
      template: template, stylePath: stylePath, dataRoot: dataRoot, settings: settings, device: device,
      tileLoader: tileLoader)
  }

  /// Renders one tile. It is drawn with the rest of its metatile (so that it matches tiles
  /// rendered by metatile); the metatile's other tiles are kept, and asking for one of them
  /// next returns it without drawing again.
  public func render(_ tile: TileID) throws -> RGBAImage {
    let metatile = Metatile(containing: tile, size: settings.metatile)
    if let last = lastMetatile, last.metatile == metatile, let image = last.tiles[tile] { return image }
    let tiles = try render(metatile)
    lastMetatile = (metatile, tiles)
    guard let image = tiles[tile] else {
      throw TileRenderError(description: "tile \(tile) is not in its metatile \(metatile)")
    }
    return image
  }

  private func map(width: Int, height: Int) throws -> Map {
    let key = SIMD2(width, height)
    if let map = maps[key] { return map }
    var options = template
    options.width = Double(width)
    options.height = Double(height)
    options.scale = Double(settings.scale)
    let map = try Map(
      preparation: MapPreparation(options: options, stylePath: stylePath, dataRoot: dataRoot, tileLoader: tileLoader),
      device: device)
    maps[key] = map
    return map
  }
}
