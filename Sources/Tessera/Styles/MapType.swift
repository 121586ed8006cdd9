import Foundation
import TesseraData
import TesseraNumbers

/// Google's map types (`GMSMapViewType`), drawn with built-in styles over an OpenMapTiles-schema
/// vector source, an imagery source and a DEM source (``MapData``).
public enum MapType: String, Sendable, CaseIterable {
  /// Roads, water, parks, land use and buildings in a light (or dark) palette.
  case normal
  /// Hillshaded relief under a softer normal map (needs ``MapData/dem``).
  case terrain
  /// Imagery only (needs ``MapData/imagery``).
  case satellite
  /// Imagery with roads and boundaries on top (needs ``MapData/imagery``).
  case hybrid
  /// Nothing but the background colour.
  case none
}

/// The colour scheme of the normal and terrain map types (`UIUserInterfaceStyle`).
public enum ColorScheme: String, Sendable, CaseIterable {
  case light
  case dark

  /// The scheme a name gives: `light`, `dark`, or the SDK's `unspecified`, which follows
  /// light (a server has no system setting to follow); nil for anything else.
  public init?(name: String) {
    if name == "unspecified" {
      self = .light
    } else if let scheme = ColorScheme(rawValue: name) {
      self = scheme
    } else {
      return nil
    }
  }
}

/// The data the built-in map types draw: source references as ``TileSourceLocator`` reads them
/// (`mbtiles://`, `pmtiles://`, paths, `http(s)://` templates or TileJSON, `demo://city`).
public struct MapData: Sendable, Equatable {
  /// An OpenMapTiles-schema vector source; the synthetic demo city by default.
  public var tiles: String
  /// A raster imagery source (satellite, hybrid).
  public var imagery: String?
  /// A raster DEM source (terrain).
  public var dem: String?
  /// The folder relative references resolve against.
  public var dataRoot: String

  public init(
    tiles: String = DemoCitySource.defaultURL, imagery: String? = nil, dem: String? = nil,
    dataRoot: String = FileManager.default.currentDirectoryPath
  ) {
    self.tiles = tiles
    self.imagery = imagery
    self.dem = dem
    self.dataRoot = dataRoot
  }
}

/// What a map draws: a built-in map type or a MapLibre style.
public enum MapContent: Sendable {
  case mapType(MapType, ColorScheme)
  /// A style, with the folder its relative source URLs resolve against.
  case style(name: String, dataRoot: String)
}
