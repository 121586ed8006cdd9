import Foundation
import TesseraJSON
import Testing

@testable import Tessera

/// The labels of the built-in map types: names in the chosen language with its fallbacks,
/// and the icons drawn for them.
@Suite struct MapTypeLabelTests {
  static func render(language: String?, scheme: ColorScheme = .light) throws -> [UInt8] {
    var options = try StyleRenderingTests.demoOptions(width: 200, height: 150)
    options.colorScheme = scheme
    options.language = language
    return try Map(options: options, gpu: .surfaceless).snapshot().image.pixels
  }

  @Test func aLanguageWithoutTranslationsFallsBackToTheLocalNames() throws {
    let local = try MapTypeLabelTests.render(language: nil)
    // The demo city has no `name:xx` for "de": `name_int`, the local name, is drawn.
    #expect(try MapTypeLabelTests.render(language: "de") == local)
    // It has Persian names: the image changes.
    #expect(try MapTypeLabelTests.render(language: "fa") != local)
  }

  @Test(arguments: [MapType.normal, .terrain, .hybrid])
  func everyMapTypeWithDataHasPlaceRoadAndWaterLabels(type: MapType) throws {
    let document = BuiltinStyle.document(
      type, scheme: .dark, data: MapData(imagery: "i", dem: "d"), raster: .init(), language: "fa")
    guard case .array(let layers)? = document["layers"] else {
      Issue.record("no layers")
      return
    }
    let symbols = layers.filter { $0["type"] == "symbol" }.compactMap { $0["id"]?.string }
    for id in ["place-city", "place-suburb", "road-name-major", "road-name-minor", "water-name-point", "poi"] {
      #expect(symbols.contains(id), "\(type) lacks \(id)")
    }
    #expect(symbols.contains("road-shield") == (type != .hybrid))
    // Labels come after every other layer, so they draw on top.
    let firstSymbol = try #require(layers.firstIndex { $0["type"] == "symbol" })
    #expect(layers[firstSymbol...].allSatisfy { $0["type"] == "symbol" })
  }

  @Test func theNameFieldFallsBackInOrder() {
    #expect(
      BuiltinLabels.nameField(language: "fa")
        == [
          "coalesce", ["get", "name:fa"], ["get", "name_fa"], ["get", "name_int"], ["get", "name_en"], ["get", "name"],
        ])
    #expect(BuiltinLabels.nameField(language: nil) == ["coalesce", ["get", "name"], ["get", "name_int"]])
  }

  @Test(arguments: ["fa", "zh-Hans", "pt_BR", "ast"])
  func languageCodesAreAccepted(code: String) throws {
    #expect(MapOptions.isLanguageCode(code))
    let scene = try Scene.parse(Array(#"{"language": "\#(code)"}"#.utf8), path: "s.json")
    #expect(scene.options.language == code)
  }

  @Test(arguments: ["", "f", "farsi", "fa-", "fa-x", "../fa", "fa\"", "中文"])
  func otherLanguagesAreErrorsNamingTheField(code: String) {
    #expect(!MapOptions.isLanguageCode(code))
    do {
      _ = try Scene.parse(["language": .string(code)], path: "s.json")
      Issue.record("'\(code)' was accepted")
    } catch {
      #expect(error.description.contains("language") && error.description.contains("s.json"))
    }
  }

  @Test func builtInIconsAreDrawnAtTheMapsDensity() throws {
    for ratio in [1.0, 2.0] {
      let icons = BuiltinIcons.images(pixelRatio: ratio)
      #expect(icons.count == BuiltinIcons.categoryColors.count + BuiltinIcons.shields.count)
      let badge = try #require(icons["poi-food"])
      #expect(badge.image.width == Int(15 * ratio) && badge.pixelRatio == ratio)
      // White centre dot, the category colour in the ring, transparent corners.
      let centre = badge.image.pixel(x: badge.image.width / 2, y: badge.image.height / 2)
      #expect(centre == (255, 255, 255, 255))
      let ring = badge.image.pixel(x: badge.image.width / 2, y: Int(3.5 * ratio))
      #expect(ring == (242, 139, 38, 255))
      #expect(badge.image.pixel(x: 0, y: 0).3 == 0)
      let shield = try #require(icons["shield-motorway"])
      let (left, top, right, bottom) = try #require(shield.content)
      #expect(left > 0 && top > 0 && right < Double(shield.image.width) && bottom < Double(shield.image.height))
      #expect(shield.stretchX.count == 1 && shield.stretchY.count == 1)
    }
  }
}
