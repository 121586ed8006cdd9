import Foundation
import TesseraData
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraStyle
import TesseraTestSupport
import Testing

@testable import Tessera
@testable import TesseraRender

/// Flat ground shades to nothing, so hillshade leaves it out: a coast shaded pixel by pixel
/// draws the same pixels with and without the slope textures' occupancy.
@Suite struct HillshadeFlatGroundTests {
  /// A folder with one zoom-10 Terrarium DEM tile (512/380): flat sea west of its middle,
  /// hills east of it, and the style drawing it over a background.
  static func coastFolder() throws -> String {
    let folder = NSTemporaryDirectory() + "tessera-hillshade-coast-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    try FileManager.default.createDirectory(atPath: folder + "/dem/10/512", withIntermediateDirectories: true)
    var pixels = [UInt8](repeating: 255, count: 256 * 256 * 4)
    for y in 0..<256 {
      for x in 0..<256 {
        let height = x < 128 ? 0 : 300 + 250 * sin(Double(x) / 9) * cos(Double(y) / 7)
        let value = height + 32768
        let offset = (y * 256 + x) * 4
        pixels[offset] = UInt8(Int(value) / 256)
        pixels[offset + 1] = UInt8(Int(value) % 256)
        pixels[offset + 2] = UInt8(Int((value - value.rounded(.down)) * 256))
      }
    }
    let tile = try PNGCodec.encode(RGBAImage(width: 256, height: 256, pixels: pixels))
    try Data(tile).write(to: URL(fileURLWithPath: folder + "/dem/10/512/380.png"))
    let tileJSON =
      #"{"tilejson": "3.0.0", "tiles": ["{z}/{x}/{y}.png"], "minzoom": 10, "maxzoom": 10,"#
      + #" "tileSize": 256, "encoding": "terrarium"}"#
    try Data(tileJSON.utf8).write(to: URL(fileURLWithPath: folder + "/dem/tilejson.json"))
    return folder
  }

  static let style = """
    {"version": 8, "sources": {"dem": {"type": "raster-dem", "url": "dem", "tileSize": 256,
      "encoding": "terrarium", "minzoom": 10, "maxzoom": 10}},
     "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#f2efe6"}},
       {"id": "hillshade", "type": "hillshade", "source": "dem",
        "paint": {"hillshade-exaggeration": 0.7, "hillshade-shadow-color": "#3d3427",
          "hillshade-accent-color": "#5a4a3a"}}]}
    """

  /// The tile's centre (the coast), flat and tilted.
  static let cameras = [
    try! Camera(latitude: 41.865, longitude: 0.176, zoom: 11.3),
    try! Camera(latitude: 41.865, longitude: 0.176, zoom: 11.6, bearing: 35, viewingAngle: 45),
  ]

  /// The coast tile's slopes: the sea's cells are left out, the hills' kept.
  @Test func theSeaIsLeftOut() throws {
    let folder = try HillshadeFlatGroundTests.coastFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/dem/10/512/380.png"
    let image = try PNGCodec.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))), source: path)
    let dem = DEMTile(image: image, encoding: .terrarium)
    let slopes = HillshadePreparation.prepareWithOccupancy(
      dem, neighbours: Array(repeating: nil, count: 8), zoom: 10, maxZoom: 10)
    let runs = slopes.occupancy.runs(in: (0, 0, 1, 1))
    // West of texel 127 all is flat: the cells from column 15 on (texel 119's footprint reaches 128).
    #expect(runs == [SIMD4(Float(120) / 256, 0, 1, 1)])
  }

  @Test(arguments: HillshadeFlatGroundTests.cameras)
  func leavingOutFlatGroundChangesNoPixel(camera: Camera) throws {
    let folder = try HillshadeFlatGroundTests.coastFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    func render(occupancy: Bool) throws -> Snapshot {
      let map = try Map(options: MapOptions(width: 256, height: 192, camera: camera, mapType: .none), gpu: .surfaceless)
      map.executor.resources.usesTextureOccupancy = occupancy
      map.executor.resources.bakesTileShading = false
      try map.setStyle(try Style.parse(Array(HillshadeFlatGroundTests.style.utf8)), name: "coast", dataRoot: folder)
      return try map.snapshot()
    }
    let whole = try render(occupancy: false)
    let occupied = try render(occupancy: true)
    // Only where the rectangles' triangles interpolate texture coordinates in another order
    // than the whole square's can a pixel move, by a level or two.
    let same = try PixelDiff().compare(occupied.image, whole.image)
    #expect(same.differentPixels == 0)
    #expect(same.largestChannelDifference <= 2)
    // Shaded hills east of the coast, the plain background over the sea.
    let background = Color(red: 0xf2 / 255.0, green: 0xef / 255.0, blue: 0xe6 / 255.0)
    let plain = whole.image.pixel(x: 2, y: 96)
    #expect(abs(Double(plain.r) / 255 - background.red) < 0.003)
    let differing = try PixelDiff(threshold: 0.01).compare(
      whole.image, RGBAImage(width: 256, height: 192, fill: background))
    #expect(differing.differentFraction > 0.2)
  }
}
