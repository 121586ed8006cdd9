import Foundation
import Tessera
import TesseraData
import TesseraGeo
import TesseraStyle
import Testing

@testable import TesseraRender

/// `image` sources: parsing, opening and where a frame places the picture.
@Suite struct ImageSourceTests {
  static func style(_ source: String) throws -> Style {
    try Style.parse(
      Array(
        #"{"version": 8, "sources": {"p": \#(source)}, "layers": [{"id": "r", "type": "raster", "source": "p"}]}"#
          .utf8), source: "image.json")
  }

  @Test(arguments: [
    (
      #"{"type": "image", "coordinates": [[0, 0], [1, 0], [1, -1], [0, -1]]}"#, "sources.p: an image source needs a url"
    ),
    (#"{"type": "image", "url": "a.png", "coordinates": [[0, 0], [1, 0], [1, -1]]}"#, "expected 4 corners"),
    (
      #"{"type": "image", "url": "a.png", "coordinates": [[0, 0], [1, 0], [1, -1], [0]]}"#,
      "expected [longitude, latitude]"
    ),
    (#"{"type": "image", "url": "a.png", "coordinates": [[0, 0], [1, 0], [1, -91], [0, -1]]}"#, "coordinates[2][1]"),
    (#"{"type": "image", "url": "a.png"}"#, "coordinates"),
  ])
  func badImageSourcesNameTheField(source: String, message: String) {
    do {
      _ = try ImageSourceTests.style(source)
      Issue.record("must be refused: \(source)")
    } catch {
      let text = "\(error)"
      #expect(text.contains(message), "\(text)")
      #expect(text.hasPrefix("image.json"))
    }
  }

  @Test func aMissingPictureNamesTheSourceAndFile() throws {
    let style = try ImageSourceTests.style(
      #"{"type": "image", "url": "nowhere.png", "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}"#)
    let map = try Map(options: MapOptions(width: 16, height: 16, mapType: .none), gpu: .surfaceless)
    do {
      try map.setStyle(style, name: "image.json", dataRoot: NSTemporaryDirectory())
      Issue.record("a missing picture must be an error")
    } catch let error as StyleSourceError {
      #expect(error.source == "p" && error.description.contains("nowhere.png"))
    }
  }

  /// The picture is held by the deepest tile spanning it, nearest its centre; its corners in
  /// that tile's units are whole 1/8192ths.
  @Test func thePictureIsPlacedInTheTileThatSpansIt() throws {
    let corners = [
      Coordinate(latitude: 37.56238816766053, longitude: -122.51596391201019),
      Coordinate(latitude: 37.56410183312965, longitude: -122.51467645168304),
      Coordinate(latitude: 37.563391708549425, longitude: -122.51309394836426),
      Coordinate(latitude: 37.56161849366671, longitude: -122.51423120498657),
    ]
    let source = ImageQuadSource(name: "p", image: RGBAImage(width: 4, height: 4), corners: corners)
    let camera = try Camera(latitude: 37.562984, longitude: -122.514426, zoom: 18)
    let transform = CameraTransform(camera: camera, viewport: try Viewport(width: 512, height: 512))
    let tiles = ImageSourcePlacement.tiles(source, transform: transform)
    #expect(tiles.count == 1)
    let tile = try #require(tiles.first)
    #expect(tile.tile.z == 16 && tile.dataTile == tile.tile && tile.wrap == 0)
    let quad = try #require(tile.quad)
    for corner in quad.corners {
      #expect((corner * 8192).rounded(.towardZero) == corner * 8192)
      #expect(corner.x > -1 && corner.x < 2 && corner.y > -1 && corner.y < 2)
    }
    // The corners project back onto the picture's coordinates within a 1/8192 of the tile.
    let origin = SIMD2(Double(tile.tile.x), Double(tile.tile.y))
    for (corner, coordinate) in zip(quad.corners, corners) {
      let world = Mercator.project(coordinate, worldSize: 65536)
      #expect(abs((corner + origin).x - world.x) < 1.0 / 8192)
      #expect(abs((corner + origin).y - world.y) < 1.0 / 8192)
    }
    // Far out, the picture spans under two points: nothing is drawn.
    let far = CameraTransform(
      camera: try Camera(latitude: 37.56, longitude: -122.51, zoom: 2), viewport: try Viewport(width: 512, height: 512))
    #expect(ImageSourcePlacement.tiles(source, transform: far).isEmpty)
  }
}
