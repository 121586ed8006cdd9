import Foundation
import TesseraGeo
import TesseraImage
import TesseraNumbers

/// A style's `image` source: one picture pinned to four corners on the map. It has no tiles of
/// its own (``fetch(_:)`` finds none); the renderer draws the picture as one quad over the
/// tiles its corners span.
package final class ImageQuadSource: TileSource {
  package let name: String
  /// The picture (straight alpha).
  package let image: RGBAImage
  /// Where the picture's top left, top right, bottom right and bottom left pixels lie.
  package let corners: [Coordinate]
  package let metadata: TileSourceMetadata

  /// Pins `image` to `corners` (four: top left, top right, bottom right, bottom left).
  package init(name: String, image: RGBAImage, corners: [Coordinate]) {
    precondition(corners.count == 4, "an image source has four corners")
    self.name = name
    self.image = image
    self.corners = corners
    metadata = TileSourceMetadata(format: .png, minZoom: 0, maxZoom: 24)
  }

  /// Reads the picture from `path` (PNG, JPEG or WebP).
  package convenience init(path: String, corners: [Coordinate]) throws(TileSourceError) {
    guard let bytes = FileManager.default.contents(atPath: path).map(Array.init) else {
      throw TileSourceError.open(source: path, reason: "cannot read the image")
    }
    do {
      self.init(name: path, image: try ImageCodec.decode(bytes, source: path), corners: corners)
    } catch {
      throw TileSourceError.open(source: path, reason: "\(error)")
    }
  }

  package func fetch(_ tile: TileID) throws(TileSourceError) -> TileFetch { .noTile }
}
