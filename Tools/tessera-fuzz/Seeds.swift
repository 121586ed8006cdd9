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
    for (index, request) in ServiceSeeds.requests.enumerated() {
      seeds.append(("service-\(index)", 13, Array(request.utf8)))
      for (variant, text) in ServiceSeeds.variants(request).enumerated() {
        seeds.append(("service-\(index)-hostile-\(variant)", 13, Array(text.utf8)))
      }
    }
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

/// Requests for the service's readers (decoder 13): a request target, an optional
/// `Content-Type:` line and a body. Google's documented Static Maps examples, tileserver-gl's
/// static images in their three camera forms (options in the query, a form body or a JSON
/// body), raster tile paths, and `POST /render` scenes.
enum ServiceSeeds {
  /// What every number in a request is replaced by in turn.
  static let hostile = ["1e308", "-1e308", "nan", "inf", "-0", "5e-324", "9223372036854775808", "1e999"]

  static let staticMaps = [
    "/maps/api/staticmap?center=Brooklyn+Bridge,New+York,NY&zoom=13&size=600x300&maptype=roadmap"
      + "&markers=color:blue%7Clabel:S%7C40.702147,-74.015794&markers=color:green%7Clabel:G%7C40.711614,-74.012318"
      + "&markers=color:red%7Clabel:C%7C40.718217,-73.998284&key=YOUR_API_KEY",
    "/maps/api/staticmap?center=40.714728,-73.998672&zoom=12&size=400x400&maptype=satellite&format=png32&scale=2",
    "/maps/api/staticmap?size=512x512&markers=size:tiny|color:0xFFFF00|label:A|40.7,-74"
      + "&markers=size:mid|color:purple|40.71,-74.01|40.715,-74.005&markers=size:small|color:0x00ff0080|40.69,-73.99"
      + "&markers=icon:https://goo.gl/5y3S82|anchor:topleft|scale:2|40.72,-74.02"
      + "&markers=anchor:32,10|icon:https://icons.example.org/pin.png|40.73,-74.03&format=jpg",
    "/maps/api/staticmap?size=400x400&path=color:0x0000ff|weight:5|40.737102,-73.990318|40.749825,-73.987963"
      + "|40.752946,-73.987384|40.755823,-73.986397&format=gif",
    "/maps/api/staticmap?size=400x400&path=color:0x00000000|weight:5|fillcolor:0xFFFF0033|40.737102,-73.990318"
      + "|40.749825,-73.987963|40.752946,-73.987384|40.737102,-73.990318&zoom=13&center=40.745,-73.988",
    "/maps/api/staticmap?size=400x400&path=weight:3%7Ccolor:orange%7Cenc:_p~iF~ps%7CU_ulLnnqC_mqNvxq%60%40"
      + "&path=geodesic:true|color:0xff0000ff|weight:6|-33.8688,151.2093|40.7128,-74.0060&format=jpg-baseline",
    "/maps/api/staticmap?size=640x640&visible=40.7,-74|40.8,-73.9&visible=Tokyo,Japan&scale=1&format=webp",
    "/maps/api/staticmap?center=40.7,-74&zoom=11&size=320x240&style=feature:road.highway|element:geometry"
      + "|color:0x00ff00|weight:2&style=feature:water|element:geometry.fill|color:0x0000ff"
      + "&style=element:labels|visibility:off&style=feature:poi|hue:0xff0000|saturation:-50|lightness:20|gamma:1.5"
      + "&style=feature:administrative|element:labels.text.fill|invert_lightness:true",
    "/maps/api/staticmap?center=40.7,-74&zoom=17&size=300x200&heading=90&tilt=45&language=ja&buildings=true"
      + "&maptype=hybrid&format=png8",
    "/maps/api/staticmap?size=300x200&markers=40.7,-74&path=40.7,-74|40.8,-74.1&map_id=8e0a97af9386fef&scale=4",
  ]

  static let tileserver = [
    "/styles/normal/static/-74,40,15@30,45/320x240@2x.png?path=stroke:red|width:4|-74.01,39.99|-73.99,40.01"
      + "&marker=-74,40",
    "/styles/normal/static/-74,40,3@120/256x256.png",
    "/styles/terrain/static/-74.01,39.99,-73.99,40.01/200x150.jpg?marker=-74,40&padding=0.2",
    "/styles/satellite/static/auto/200x150.webp?path=fill:rgba(255,0,0,0.3)|stroke:blue|-74.01,39.99|-73.99,40.01"
      + "|-74,40.02&padding=0.3&maxzoom=15&marker=-74,40|icon",
    "/styles/normal/static/auto/300x200.png\nContent-Type: application/x-www-form-urlencoded\n"
      + "path=stroke:red%7Cwidth:3%7C-74.01,39.99%7C-73.99,40.01&marker=-74,40&padding=0.1&maxzoom=14",
    "/styles/hybrid/static/auto/300x200@2x.png\n"
      + #"{"path": ["-74.01,39.99|-73.99,40.01", "stroke:green|width:2|-74.02,39.98|-73.98,40.02"], "#
      + #""marker": ["-74,40", "-74.005,40.005"], "padding": 0.2, "maxzoom": 15}"#,
    "/styles/normal/static/-74,40,12/400x300.gif?path=-74.01,39.99|-73.99,40.01\nContent-Type: application/json\n"
      + #"{"marker": -74, "padding": 0.25, "maxzoom": 9, "path": [true, 12.5]}"#,
  ]

  static let tiles = [
    "/styles/normal/14/8529/5974.png", "/styles/normal/14/8529/5974@2x.png", "/styles/normal/512/13/4264/2987@2x.webp",
    "/styles/terrain/256/0/0/0.jpg", "/styles/normal/22/4194303/4194303@4x.png", "/styles/normal.json",
    "/styles/512/normal.json", "/index.json", "/styles/normal/wmts.xml", "/styles/normal/style.json", "/health",
  ]

  static let renderBodies = [
    ##"{"size": {"width": 320, "height": 240}, "scale": 2, "camera": {"latitude": 43.73, "longitude": 7.42, "zoom": 14, "bearing": 20, "viewingAngle": 30}, "markers": [{"position": [43.73, 7.42], "color": "#ff8800", "size": "mid", "label": "B", "rotation": 45, "opacity": 0.8, "zIndex": 2, "groundAnchor": [0.5, 1], "infoWindowAnchor": [0.5, 0], "title": "t", "snippet": "s", "selected": true, "appearAnimation": "pop", "collisionBehavior": "requiredAndHidesOptional", "flat": true, "tappable": false}, {"latitude": 43.735, "longitude": 7.425, "color": "blue"}], "selectedMarker": 1, "markerAppear": 0.5}"##,
    ##"{"size": {"width": 256, "height": 256}, "polylines": [{"path": [[43.7, 7.4], [43.71, 7.42], [43.72, 7.41]], "width": 6, "color": "#0000ffcc", "geodesic": true, "zIndex": 3, "spans": [{"color": "red", "segments": 1.5}, {"gradient": ["blue", "green"], "segments": 1}], "pattern": ["dash:8", "gap:4", "dot", "gap:2"]}, {"encoded": "_p~iF~ps|U_ulLnnqC_mqNvxq`@", "dashes": {"colors": ["red", "transparent"], "lengths": [50, 20], "kind": "geodesic"}}], "fit": {"padding": 12, "maxZoom": 16, "wholeZoom": false}}"##,
    ##"{"size": {"width": 300, "height": 200}, "polygons": [{"path": [[43.7, 170], [43.7, -170], [43.8, -170]], "holes": [[[43.72, 179], [43.73, 179.5], [43.72, -179.5]]], "fillColor": "rgba(0, 128, 0, 0.4)", "strokeColor": "green", "strokeWidth": 2, "geodesic": true}], "circles": [{"center": [43.7, 7.4], "radius": 1500, "fillColor": "#ff000044", "strokeColor": "red", "strokeWidth": 3, "zIndex": 1}, {"center": [89.9, 0], "radius": 5000000}], "visible": [[43.6, 7.3], [43.8, 7.5]]}"##,
    ##"{"size": {"width": 200, "height": 200}, "camera": {"latitude": 43.7, "longitude": 7.4, "zoom": 12}, "heatmaps": [{"points": [[43.7, 7.4, 2], [43.71, 7.41], [43.69, 7.39, 0.5]], "radius": 30, "opacity": 0.7, "intensity": 1.5, "gradient": [[0.1, "blue"], [0.6, "yellow"], [1, "red"]]}], "myLocation": {"position": [43.7, 7.4], "accuracy": 300, "heading": 90}, "tileOverlays": [{"source": "http://127.0.0.1/{z}/{x}/{y}.png", "tileSize": 256, "opacity": 0.5}]}"##,
    ##"{"name": "shared", "style": "style.json", "size": {"width": 128, "height": 96}, "padding": {"top": 10, "left": 4, "bottom": 6, "right": 2}, "minZoom": 2, "maxZoom": 18, "maxTilt": 60, "cameraTargetBounds": [7, 43, 8, 44], "updates": ["zoomBy:1", "scrollBy:10,-20", "fit:7,43,8,44@4"], "mapType": "terrain", "colorScheme": "dark", "language": "fr", "attribution": false, "scaleBar": true, "tileGrid": true, "background": "#102030", "sky": "#aabbcc", "buildings": true, "mapStyle": [{"featureType": "water", "stylers": [{"color": "#0000ff"}, {"lightness": -20}]}], "tessera": {"style": null, "markers": [{"position": [43.7, 7.4], "label": "1", "size": "small"}], "polylines": [{"path": [[43.7, 7.4], [43.75, 7.45]], "width": 2}]}}"##,
    ##"{"size": {"width": 64, "height": 48}, "markers": [{"position": [43.7, 7.4]}, {"position": [-33.8688, 151.2093], "color": "green"}], "groundOverlays": [{"image": "x.png", "bounds": [[43.6, 7.3], [43.8, 7.5]], "bearing": 10, "opacity": 0.5}], "geojsonOverlays": [{"geojson": "x.geojson"}], "featureStates": [{"source": "s", "sourceLayer": "l", "id": 3, "state": {"hover": true}}], "animation": {"to": {"latitude": 43.71, "longitude": 7.41, "zoom": 13}, "duration": 0.5, "fps": 4}}"##,
  ]

  static let requests: [String] =
    staticMaps + tileserver + tiles
    + renderBodies.enumerated().map { index, body in
      (index % 2 == 0 ? "/render\n" : "/render?format=webp\nContent-Type: application/json\n") + body
    }

  /// `text` with each of its numbers in turn replaced by each hostile number: numbers in the
  /// path, the query and the body alike (runs of digits, signs, points and exponents after
  /// anything but a letter, a digit or a point; after a `%XX` escape or a size's `x` too).
  static func variants(_ text: String) -> [String] {
    let characters = Array(text)
    var numbers: [Range<Int>] = []
    var index = 0
    while index < characters.count {
      let character = characters[index]
      let previous = index > 0 ? characters[index - 1] : " "
      // After a `%XX` escape, or the `x` of a size (`400x300`).
      let escaped =
        index >= 3 && characters[index - 3] == "%" || previous == "x" && index >= 2 && characters[index - 2].isNumber
      let starts =
        character.isNumber || (character == "-" && index + 1 < characters.count && characters[index + 1].isNumber)
      if starts && (escaped || !(previous.isLetter || previous.isNumber || previous == "." || previous == "_")) {
        var end = index + 1
        while end < characters.count, characters[end].isNumber || ".eE+-".contains(characters[end]) { end += 1 }
        // A point, sign or `e` at the end belongs to what follows (`5974.png`).
        while end > index + 1, !characters[end - 1].isNumber { end -= 1 }
        numbers.append(index..<end)
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
