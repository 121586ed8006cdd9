import Foundation
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraTestSupport
import Testing

@testable import Tessera

/// Google map styling: reading rules, the colour stylers, and what each rule does to the
/// built-in style.
@Suite struct GoogleStyleTests {
  static func document(_ rules: String, type: MapType = .normal) throws -> (JSONValue, [String]) {
    let style = try MapStyle(jsonString: rules)
    let base = BuiltinStyle.document(
      type, scheme: .light, data: MapData(), raster: BuiltinStyle.RasterSettings(), buildings3D: true)
    return GoogleStyleApplier(style: style).apply(to: base)
  }

  static func layer(_ document: JSONValue, _ id: String) -> JSONValue? {
    guard case .array(let layers)? = document["layers"] else { return nil }
    return layers.first { $0["id"] == .string(id) }
  }

  static func base(_ id: String) -> JSONValue? {
    layer(
      BuiltinStyle.document(.normal, scheme: .light, data: MapData(), raster: BuiltinStyle.RasterSettings()), id)
  }

  @Test func rulesAreReadWithErrorsNamingTheRuleAndKey() throws {
    let style = try MapStyle(
      jsonString:
        ##"[{"stylers": [{"saturation": -100}]}, {"featureType": "water", "elementType": "geometry", "stylers": [{"color": "#0000ff"}, {"visibility": "simplified"}]}]"##
    )
    #expect(style.rules.count == 2)
    #expect(style.rules[0].featureType == "all" && style.rules[0].elementType == "all")
    #expect(style.rules[1].stylers == [.color(Color(r: 0, g: 0, b: 255)), .visibility(.simplified)])
    func message(_ json: String) -> String {
      do {
        _ = try MapStyle(jsonString: json, source: "s.json")
        return "accepted"
      } catch {
        return error.description
      }
    }
    #expect(message("[{").contains("invalid JSON"))
    #expect(message("{}").contains("expected an array"))
    #expect(
      message(##"[{"stylers": []}, {"featureType": "roads", "stylers": []}]"##)
        == "s.json: rule 1 featureType: unknown featureType 'roads'")
    #expect(message(##"[{"elementType": "label", "stylers": []}]"##).contains("rule 0 elementType"))
    #expect(
      message(##"[{"stylers": [{"lightness": 101}]}]"##).contains("rule 0 lightness: expected a number in -100.0…100.0")
    )
    #expect(message(##"[{"stylers": [{"gama": 2}]}]"##).contains("rule 0 gama: unknown styler"))
    #expect(message(##"[{"stylers": [{"visibility": "hidden"}]}]"##).contains("rule 0 visibility"))
    #expect(message(##"[{"stylers": [{"color": "blu"}]}]"##).contains("rule 0 color"))
    #expect(message(##"[{"stylers": [{"color": "#fff"}], "extra": 1}]"##).contains("rule 0 extra: unknown key"))
  }

  @Test func scenesTakeStylingInlineOrFromAFile() throws {
    let inline = try Scene.parse(
      ["mapStyle": [["featureType": "water", "stylers": [["color": "#0000ff"]]]]], path: "/tmp/styled.json")
    #expect(inline.options.mapStyle?.rules.first?.featureType == "water")
    do {
      _ = try Scene.parse(["mapStyle": [["featureType": "waters", "stylers": []]]], path: "/tmp/styled.json")
      Issue.record("a bad rule was accepted")
    } catch {
      #expect("\(error)".contains("mapStyle: rule 0 featureType: unknown featureType 'waters'"), "\(error)")
    }
    #expect(throws: (any Error).self) { try Scene.parse(["mapStyle": "missing.json"], path: "/tmp/styled.json") }
  }

  @Test func staticMapsRulesReadLikeJSONRules() throws {
    let style = try MapStyle(staticMapsRules: [
      "feature:road.local|element:geometry|color:0x00ff00|weight:1", "visibility:off",
    ])
    #expect(
      style.rules[0]
        == MapStyle.Rule(
          featureType: "road.local", elementType: "geometry", stylers: [.color(Color(r: 0, g: 255, b: 0)), .weight(1)]))
    #expect(style.rules[1] == MapStyle.Rule(stylers: [.visibility(.off)]))
    #expect(throws: MapStyleError.self) { try MapStyle(staticMapsRules: ["feature:roads|color:0x00ff00"]) }
    #expect(throws: MapStyleError.self) { try MapStyle(staticMapsRules: ["feature:road|lightness:abc"]) }
  }

  @Test func colourStylersWorkInHSL() {
    let orange = Color(r: 255, g: 128, b: 0)
    func close(_ a: Color, _ b: Color) -> Bool {
      abs(a.red - b.red) < 1e-9 && abs(a.green - b.green) < 1e-9 && abs(a.blue - b.blue) < 1e-9
    }
    #expect(close(GoogleStylers.apply([.color(Color(r: 0, g: 0, b: 255))], to: orange), Color(r: 0, g: 0, b: 255)))
    let grey = GoogleStylers.apply([.saturation(-100)], to: orange)
    #expect(abs(grey.red - grey.green) < 1e-9 && abs(grey.green - grey.blue) < 1e-9)
    #expect(close(GoogleStylers.apply([.lightness(100)], to: orange), .white))
    #expect(close(GoogleStylers.apply([.lightness(-100)], to: orange), .black))
    let hued = GoogleStylers.hsl(GoogleStylers.apply([.hue(Color(r: 0, g: 0, b: 255))], to: orange))
    #expect(abs(hued.h - 240) < 1e-9 && abs(hued.s - GoogleStylers.hsl(orange).s) < 1e-9)
    #expect(close(GoogleStylers.apply([.invertLightness], to: .white), .black))
    #expect(close(GoogleStylers.apply([.gamma(1)], to: orange), orange))
    let mid = Color(red: 0.5, green: 0.5, blue: 0.5)
    #expect(GoogleStylers.apply([.gamma(2)], to: mid).red > 0.7)
    #expect(close(GoogleStylers.apply([.gamma(2)], to: .white), .white))
    // In order: a colour set, then lightened half way to white.
    #expect(close(GoogleStylers.apply([.color(.black), .lightness(50)], to: orange), mid))
  }

  @Test func aRuleChangesOnlyTheFeaturesAndElementsItNames() throws {
    let (styled, warnings) = try GoogleStyleTests.document(
      ##"[{"featureType": "water", "elementType": "geometry", "stylers": [{"color": "#0000ff"}]}]"##)
    #expect(warnings.isEmpty)
    #expect(GoogleStyleTests.layer(styled, "water")?["paint"]?["fill-color"] == "rgba(0, 0, 255, 1.0)")
    #expect(GoogleStyleTests.layer(styled, "waterway")?["paint"]?["line-color"] == "rgba(0, 0, 255, 1.0)")
    // Labels and other features are untouched.
    #expect(GoogleStyleTests.layer(styled, "water-name-point") == GoogleStyleTests.base("water-name-point"))
    #expect(GoogleStyleTests.layer(styled, "park") == GoogleStyleTests.base("park"))
  }

  @Test func featureTypesSelectTheirSubtypesAndStrokesAreCasings() throws {
    let (styled, _) = try GoogleStyleTests.document(
      ##"[{"featureType": "road.highway", "elementType": "geometry.stroke", "stylers": [{"color": "#ff0000"}]}]"##)
    // Casings of motorways (controlled access) and trunks change through a match on class;
    // road fills do not.
    let casing = try #require(GoogleStyleTests.layer(styled, "road-primary-casing")?["paint"]?["line-color"])
    #expect(casing.array?.first == "match")
    #expect("\(casing)".contains("trunk") && "\(casing)".contains("rgba(255, 0, 0, 1.0)"))
    #expect(
      GoogleStyleTests.layer(styled, "road-motorway-casing")?["paint"]?["line-color"]
        != GoogleStyleTests.base("road-motorway-casing")?["paint"]?["line-color"])
    #expect(GoogleStyleTests.layer(styled, "road-motorway") == GoogleStyleTests.base("road-motorway"))
    #expect(GoogleStyleTests.layer(styled, "road-minor-casing") == GoogleStyleTests.base("road-minor-casing"))
  }

  @Test func labelElementsStyleTextFillHaloAndIcons() throws {
    let (styled, _) = try GoogleStyleTests.document(
      ##"""
      [{"featureType": "administrative.locality", "elementType": "labels.text.fill", "stylers": [{"color": "#ff0000"}]},
       {"featureType": "administrative.locality", "elementType": "labels.text.stroke", "stylers": [{"color": "#00ff00"}, {"weight": 3}]},
       {"featureType": "poi", "elementType": "labels.icon", "stylers": [{"visibility": "off"}]}]
      """##)
    let city = try #require(GoogleStyleTests.layer(styled, "place-city"))
    #expect(city["paint"]?["text-color"] == "rgba(255, 0, 0, 1.0)")
    #expect(city["paint"]?["text-halo-color"] == "rgba(0, 255, 0, 1.0)")
    #expect(city["paint"]?["text-halo-width"] == 3)
    #expect(GoogleStyleTests.layer(styled, "place-country") == GoogleStyleTests.base("place-country"))
    // POI icons go; transit stations (not "poi" features) keep theirs.
    let poi = try #require(GoogleStyleTests.layer(styled, "poi"))
    let icon = try #require(poi["layout"]?["icon-image"]?.array)
    #expect(icon.last == "" && "\(icon[2])".contains("railway"))
    #expect(poi["layout"]?["text-field"] == GoogleStyleTests.base("poi")?["layout"]?["text-field"])
  }

  @Test func visibilityHidesFeaturesSimplifiedDropsStrokes() throws {
    let (styled, _) = try GoogleStyleTests.document(
      ##"""
      [{"featureType": "poi.business", "stylers": [{"visibility": "off"}]},
       {"featureType": "water", "stylers": [{"visibility": "off"}]},
       {"featureType": "road.local", "stylers": [{"visibility": "simplified"}]}]
      """##)
    #expect(GoogleStyleTests.layer(styled, "water") == nil)
    #expect(GoogleStyleTests.layer(styled, "water-name-point") == nil)
    let filter = "\(try #require(GoogleStyleTests.layer(styled, "poi")?["filter"]))"
    #expect(filter.contains("restaurant") && filter.contains("false"))
    // Local roads keep their fill but lose their casing.
    #expect(GoogleStyleTests.layer(styled, "road-minor-casing") == nil)
    #expect(GoogleStyleTests.layer(styled, "road-minor") != nil)
  }

  @Test func weightSetsLineWidths() throws {
    let (styled, _) = try GoogleStyleTests.document(
      ##"[{"featureType": "road.local", "elementType": "geometry", "stylers": [{"weight": 4}]}]"##)
    #expect(GoogleStyleTests.layer(styled, "road-minor")?["paint"]?["line-width"] == 4)
  }

  @Test func rulesForFeaturesTheMapTypeLacksAreWarnings() throws {
    let (_, warnings) = try GoogleStyleTests.document(
      ##"[{"featureType": "landscape.natural.terrain", "stylers": [{"visibility": "off"}]}, {"stylers": [{"hue": "#ff0000"}]}]"##
    )
    #expect(warnings.count == 1 && warnings[0].contains("rule 0") && warnings[0].contains("landscape.natural.terrain"))
    let (_, terrain) = try GoogleStyleTests.document(
      ##"[{"featureType": "landscape.natural.terrain", "stylers": [{"visibility": "off"}]}]"##, type: .terrain)
    #expect(terrain.isEmpty)
  }

  @Test func aWaterColourRuleChangesOnlyWaterPixels() throws {
    func render(_ rules: [String]) throws -> RGBAImage {
      var options = MapOptions(
        width: 240, height: 180, camera: try Camera(latitude: 40.016, longitude: -74.016, zoom: 14))
      options.attribution = .off
      // Labels off in every render (a name over water blends with it).
      let noLabels = ##"{"elementType": "labels", "stylers": [{"visibility": "off"}]}"##
      options.mapStyle = try MapStyle(jsonString: "[" + ([noLabels] + rules).joined(separator: ",") + "]")
      return try Map(options: options, gpu: .surfaceless).snapshot().image
    }
    let plain = try render([])
    let magenta = try render([
      ##"{"featureType": "water", "elementType": "geometry", "stylers": [{"color": "#ff00ff"}]}"##
    ])
    // Where water draws at all: the pixels that change when it is hidden.
    let dry = try render([##"{"featureType": "water", "stylers": [{"visibility": "off"}]}"##])
    /// The largest channel difference of two pixels.
    func difference(_ a: RGBAImage, _ b: RGBAImage, _ x: Int, _ y: Int) -> Int {
      let (p, q) = (a.pixel(x: x, y: y), b.pixel(x: x, y: y))
      return max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
    }
    // Water's faintest antialiased fringe can round to the same byte in one colour and not in
    // another: differences of 3 levels or less count as none.
    var (changed, changedElsewhere, waterUnchanged) = (0, 0, 0)
    for y in 0..<plain.height {
      for x in 0..<plain.width {
        let change = difference(plain, magenta, x, y)
        let water = difference(plain, dry, x, y)
        if change > 3 { changed += 1 }
        if change > 3 && water == 0 { changedElsewhere += 1 }
        if water > 3 && change == 0 { waterUnchanged += 1 }
      }
    }
    #expect(changed > 2000)
    #expect(changedElsewhere == 0, "\(changedElsewhere) pixels changed where no water draws")
    #expect(waterUnchanged == 0, "\(waterUnchanged) water pixels kept their colour")
  }

  @Test func mapIDsResolveThroughFoldersAndConfigFiles() throws {
    let directory = NSTemporaryDirectory() + "tessera-map-ids-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    func write(_ name: String, _ text: String) throws {
      try Data(text.utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
    }
    try write(
      "bg.json",
      ##"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#123456"}}]}"##
    )
    try write(
      "ids.json",
      ##"""
      {"mapIDs": {
        "marine": {"mapType": "normal", "mapStyle": [{"featureType": "water", "stylers": [{"color": "#0000ff"}]}],
                   "dark": {"mapStyle": [{"featureType": "water", "stylers": [{"color": "#ff0000"}]}]}},
        "plain": {"style": "bg.json"}}}
      """##)
    let registry = try MapIDRegistry(path: "\(directory)/ids.json")
    #expect(registry.knownIDs == ["marine", "plain"])
    func pixel(_ id: String, _ scheme: ColorScheme) throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
      var options = MapOptions(
        width: 64, height: 48, camera: try Camera(latitude: 40.0185, longitude: -74.0185, zoom: 15))
      options.attribution = .off
      options.mapIDs = registry
      options.mapID = id
      options.colorScheme = scheme
      return try Map(options: options, gpu: .surfaceless).snapshot().image.pixel(x: 32, y: 24)
    }
    #expect(try pixel("marine", .light) == (0, 0, 255, 255))
    #expect(try pixel("marine", .dark) == (255, 0, 0, 255))
    #expect(try pixel("plain", .light) == (0x12, 0x34, 0x56, 255))
    let unknown: String
    do {
      _ = try registry.look("harbour")
      unknown = "resolved"
    } catch {
      unknown = "\(error)"
    }
    #expect(unknown.contains("unknown map ID 'harbour' (known: marine, plain)"))
    // A styles folder: rules as ID.json, a dark variant as ID.dark.json.
    let folder = directory + "/styles"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data(##"[{"featureType": "water", "stylers": [{"color": "#00ff00"}]}]"##.utf8).write(
      to: URL(fileURLWithPath: folder + "/green.json"))
    let styles = try MapIDRegistry(path: folder)
    #expect(styles.knownIDs == ["green"])
    guard case .mapType(.normal, let style?) = try styles.look("green") else {
      Issue.record("rules did not make a map type look")
      return
    }
    #expect(style.rules.first?.featureType == "water")
    #expect(throws: MapIDError.self) { try MapIDRegistry(path: directory + "/missing") }
  }
}
