import TesseraJSON
import TesseraStyle
import Testing

/// `is-supported-script`: every script with local fonts (HarfBuzz); with glyph PBFs, not the
/// scripts MapLibre Native cannot shape from them.
@Suite struct SupportedScriptTests {
  struct Feature: StyleFeature {
    let name: String
    let shapesComplexScripts: Bool
    func property(_ key: String) -> StyleValue? { key == "name" ? .string(name) : nil }
    var properties: [String: StyleValue] { ["name": .string(name)] }
    var geometryTypeName: String { "Point" }
    var identifier: StyleValue? { nil }
  }

  static func supported(_ name: String, localFonts: Bool) throws -> StyleValue {
    let expression = try ExpressionParser(path: "test").parse(
      try JSONParser.parse(#"["is-supported-script", ["get", "name"]]"#))
    return try expression.evaluate(
      EvaluationContext(zoom: 10, feature: Feature(name: name, shapesComplexScripts: localFonts)))
  }

  @Test func pbfTextLacksComplexShapingLocalFontsDoNot() throws {
    for (name, pbf) in [
      ("Monaco", true), ("سلام۳۹", true), ("שלום", true), ("東京", true), ("देवनागरी", false), ("ಕನ್ನಡ", false),
      ("སྐད་", false), ("မြန်မာ", false), ("ខ្មែរ", false), ("Mixed देव", false),
    ] {
      #expect(try SupportedScriptTests.supported(name, localFonts: false) == .bool(pbf), "\(name)")
      #expect(try SupportedScriptTests.supported(name, localFonts: true) == .bool(true), "\(name)")
    }
  }
}
