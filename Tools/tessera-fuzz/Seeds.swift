import Foundation
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// A starting corpus for the fuzz target: a small valid input of each decoder, and for the
/// JSON documents (styles, GeoJSON, scenes, TileJSON) every variant with one number replaced by
/// a hostile one (±1e300, 1e999, −0, 2^63, 2^64, Int32's edges just beyond).
enum Seeds {
  static let hostile = [
    "1e300", "-1e300", "1e308", "-1e308", "1e999", "-1e999", "-0", "9223372036854775808", "18446744073709551616",
    "2147483648", "-2147483649", "1e-300",
  ]

  static let style = #"""
    {"version": 8, "sprite": "s", "sources": {"g": {"type": "geojson", "maxzoom": 14, "data": {"type": "FeatureCollection", "features": [{"type": "Feature", "id": 7, "properties": {"i": 1, "w": 2}, "geometry": {"type": "Point", "coordinates": [7.41, 43.72]}}]}}, "v": {"type": "vector", "tiles": ["t/{z}/{x}/{y}.pbf"], "minzoom": 0, "maxzoom": 14, "tileSize": 512}}, "layers": [{"id": "b", "type": "background", "paint": {"background-color": "#88aacc", "background-opacity": 0.9}}, {"id": "f", "type": "fill", "source": "g", "minzoom": 1, "maxzoom": 22, "paint": {"fill-color": ["interpolate", ["linear"], ["zoom"], 5, "red", 15, "blue"], "fill-translate": [2, 3], "fill-pattern": ["match", ["get", "i"], 1, "a", ["image", "b"]]}}, {"id": "l", "type": "line", "source": "g", "paint": {"line-width": ["at", ["to-number", ["get", "i"]], ["literal", [1, 4]]], "line-dasharray": [2, 1], "line-blur": ["*", ["get", "w"], 0.5]}, "layout": {"line-miter-limit": 3}}, {"id": "c", "type": "circle", "source": "g", "filter": [">", ["get", "w"], 1], "paint": {"circle-radius": {"property": "w", "stops": [[0, 1], [10, 5]]}, "circle-color": ["rgba", ["get", "w"], 20, 30, 1]}}]}
    """#

  static let geoJSON = #"""
    {"type": "FeatureCollection", "features": [{"type": "Feature", "id": 3, "properties": {"h": 12}, "geometry": {"type": "Polygon", "coordinates": [[[7.40, 43.70], [7.43, 43.70], [7.43, 43.73], [7.40, 43.70]]]}}, {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[7.40, 43.70], [7.50, 43.80]]}}]}
    """#

  static let scene = #"""
    {"size": {"width": 64, "height": 48}, "scale": 2, "padding": {"top": 4, "left": 2, "bottom": 3, "right": 1}, "camera": {"latitude": 43.7, "longitude": 7.4, "zoom": 12, "bearing": 30, "viewingAngle": 40}, "minZoom": 1, "maxZoom": 20, "maxTilt": 70, "markerAppear": 0.5, "mapType": "none", "cameraTargetBounds": [7, 43, 8, 44], "updates": ["zoomBy:1", "fit:7,43,8,44@4"], "markers": [{"position": [43.7, 7.4], "zIndex": 3, "rotation": 10, "opacity": 0.5}], "animation": {"to": {"latitude": 43.71, "longitude": 7.41, "zoom": 13}, "duration": 0.5, "fps": 4}}
    """#

  static let overlays = #"""
    {"polylines": [{"path": [[43.7, 7.4], [43.71, 7.42]], "width": 4, "spans": [{"color": "red", "segments": 0.5}, {"gradient": ["blue", "green"]}], "pattern": ["dash:4", "gap:2", "dot"], "dashes": {"colors": ["red", "transparent"], "lengths": [50, 20]}}, {"encoded": "_p~iF~ps|U_ulLnnqC_mqNvxq`@"}], "polygons": [{"path": [[43.7, 170], [43.7, -170], [43.8, -170]], "holes": [[[43.72, 179], [43.73, 179.5], [43.72, -179.5]]]}], "circles": [{"center": [89.9, 0], "radius": 5000000}], "heatmaps": [{"points": [[43.7, 7.4, 2], [43.71, 7.41]], "gradient": [[0.1, "blue"], [1, "red"]]}], "tileOverlays": [{"source": "http://127.0.0.1/{z}/{x}/{y}.png"}], "myLocation": {"position": [43.7, 7.4], "accuracy": 30, "heading": 90}}
    """#

  static let mapStyle = #"""
    [{"stylers": [{"saturation": -40}, {"gamma": 1.5}]}, {"featureType": "road.highway", "elementType": "geometry.stroke", "stylers": [{"color": "#ff0000"}, {"weight": 2}]}, {"featureType": "poi.business", "stylers": [{"visibility": "off"}]}, {"elementType": "labels.text", "stylers": [{"invert_lightness": true}, {"hue": "#00ff00"}, {"lightness": 20}]}]
    """#

  static let tileJSON = #"""
    {"tilejson": "3.0.0", "tiles": ["http://127.0.0.1/{z}/{x}/{y}.pbf"], "minzoom": 0, "maxzoom": 14, "tileSize": 256, "bounds": [7, 43, 8, 44], "center": [7.4, 43.7, 12], "vector_layers": [{"id": "water", "minzoom": 0, "maxzoom": 14}]}
    """#

  static let spriteIndex = #"""
    {"a": {"x": 0, "y": 0, "width": 16, "height": 16, "pixelRatio": 1}, "b": {"x": 16, "y": 0, "width": 48, "height": 8, "pixelRatio": 2, "sdf": true}, "c": {"x": 60, "y": 30, "width": 4, "height": 2}}
    """#

  /// Writes the seeds into `folder` (made if missing); returns how many.
  static func write(to folder: String) throws -> Int {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var seeds: [(String, UInt8, [UInt8])] = []
    if case .data(let tile) = try DemoCitySource().fetch(TileID(z: 14, x: 4823, y: 6160)) {
      seeds.append(("mvt-demo-city", 0, tile))
    }
    var image = RGBAImage(width: 3, height: 2)
    image.setPixel(x: 1, y: 1, (255, 0, 0, 255))
    seeds.append(("png-3x2", 2, try PNGCodec.encode(image)))
    seeds.append(("gif-3x2", 2, try GIFCodec.encode(image)))
    seeds.append(("png8-3x2", 2, try PNGCodec.encodePalette(image)))
    for (name, selector, text) in [
      ("style", UInt8(4), style), ("geojson", 5, geoJSON), ("scene", 6, scene), ("tilejson", 7, tileJSON),
      ("sprite", 8, spriteIndex), ("overlays", 11, overlays), ("mapstyle", 12, mapStyle),
    ] {
      seeds.append((name, selector, Array(text.utf8)))
      seeds.append(("json-" + name, 3, Array(text.utf8)))
      for (index, variant) in variants(text).enumerated() {
        seeds.append(("\(name)-hostile-\(index)", selector, Array(variant.utf8)))
      }
    }
    // A glyph PBF of three glyphs (A, space, B) and a font file of the system's, if any.
    seeds.append(("glyph-pbf", 9, GlyphSeeds.pbf))
    seeds.append(
      (
        "static-maps-syntax", 11,
        Array(
          "color:0x0000ff80|weight:5|geodesic:true|40.737102,-73.990318|40.749825,-73.987963\nsize:mid|color:red|label:C|40.7,-74.0|40.8,-73.9\nfillcolor:0xFFFF0033|enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@\nicon:https://127.0.0.1/x.png|anchor:topleft|scale:2|0,0"
            .utf8)
      ))
    for font in [
      "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    ] {
      if let data = FileManager.default.contents(atPath: font), data.count < 1 << 20 {
        seeds.append(("font-" + (font.split(separator: "/").last.map(String.init) ?? "font"), 10, Array(data)))
        break
      }
    }
    for (name, selector, payload) in seeds {
      _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data([selector] + payload))
    }
    return seeds.count
  }

  /// `text` with each of its numbers in turn replaced by each hostile number.
  static func variants(_ text: String) -> [String] {
    let characters = Array(text)
    var numbers: [Range<Int>] = []
    var index = 0
    while index < characters.count {
      let character = characters[index]
      let previous = index > 0 ? characters[index - 1] : " "
      if (character.isNumber || character == "-") && !previous.isLetter && !previous.isNumber && previous != "."
        && previous != "\"" && previous != "{" && previous != "/"
      {
        var end = index + 1
        while end < characters.count, characters[end].isNumber || ".eE+-".contains(characters[end]) { end += 1 }
        if characters[index..<end].contains(where: \.isNumber) { numbers.append(index..<end) }
        index = end
      } else {
        index += 1
      }
    }
    return numbers.flatMap { range in
      hostile.map { String(characters[..<range.lowerBound]) + $0 + String(characters[range.upperBound...]) }
    }
  }
}

/// A small glyph PBF written with the protobuf wire format by hand.
enum GlyphSeeds {
  static func varint(_ value: UInt64) -> [UInt8] {
    var value = value
    var bytes: [UInt8] = []
    repeat {
      bytes.append(UInt8(value & 0x7F) | (value > 0x7F ? 0x80 : 0))
      value >>= 7
    } while value > 0
    return bytes
  }

  static func field(_ number: UInt64, _ payload: [UInt8]) -> [UInt8] {
    varint(number << 3 | 2) + varint(UInt64(payload.count)) + payload
  }

  static func glyph(id: UInt64, width: UInt64, height: UInt64) -> [UInt8] {
    var bytes = varint(1 << 3) + varint(id)
    if width > 0 {
      let bitmap = (0..<((width + 6) * (height + 6))).map { UInt8(truncatingIfNeeded: $0 * 37) }
      bytes += field(2, bitmap)
    }
    bytes += varint(3 << 3) + varint(width) + varint(4 << 3) + varint(height)
    bytes += varint(5 << 3) + varint(2) + varint(6 << 3) + varint(13) + varint(7 << 3) + varint(10)
    return bytes
  }

  static let pbf: [UInt8] = {
    let stack =
      field(1, Array("Fuzz".utf8)) + field(2, Array("0-255".utf8)) + field(3, glyph(id: 65, width: 8, height: 12))
      + field(3, glyph(id: 32, width: 0, height: 0)) + field(3, glyph(id: 66, width: 7, height: 12))
    return field(1, stack)
  }()
}
