import TesseraImage
import TesseraJSON
import TesseraStyle
import Testing

/// A feature for expression tests.
struct TestFeature: StyleFeature {
  var properties: [String: StyleValue]
  var geometryTypeName = "Polygon"
  var identifier: StyleValue? = .number(42)

  func property(_ key: String) -> StyleValue? { properties[key] }
}

let feature = TestFeature(properties: [
  "class": .string("park"), "height": .number(24), "level": .number(2), "levelText": .string("2"),
  "name": .string("Oak St"),
  "flag": .bool(true), "tags": .array([.string("a"), .string("b")]), "colour": .string("#ff0000"),
])

func evaluate(_ json: String, zoom: Double? = 14) throws -> StyleValue {
  let expression = try ExpressionParser(path: "test").parse(try JSONParser.parse(json))
  return try expression.evaluate(EvaluationContext(zoom: zoom, feature: feature))
}

@Suite struct ExpressionTests {
  struct Row: Sendable, CustomStringConvertible {
    let json: String
    let expected: StyleValue
    var description: String { json }
    init(_ json: String, _ expected: StyleValue) {
      self.json = json
      self.expected = expected
    }
  }

  static let rows: [Row] = [
    Row(#"["literal", [1, "a"]]"#, .array([.number(1), .string("a")])),
    Row(#"["get", "class"]"#, .string("park")),
    Row(#"["get", "missing"]"#, .null),
    Row(#"["get", "x", ["literal", {"x": 3}]]"#, .number(3)),
    Row(#"["has", "height"]"#, .bool(true)),
    Row(#"["has", "nope"]"#, .bool(false)),
    Row(#"["in", "b", ["get", "tags"]]"#, .bool(true)),
    Row(#"["in", "ak", ["get", "name"]]"#, .bool(true)),
    Row(#"["in", ["get", "class"], ["literal", ["wood", "park"]]]"#, .bool(true)),
    Row(#"["==", ["get", "level"], 2]"#, .bool(true)),
    Row(#"["==", ["get", "levelText"], 2]"#, .bool(false)),
    Row(#"["!=", ["get", "class"], "wood"]"#, .bool(true)),
    Row(#"["<", ["get", "height"], 30]"#, .bool(true)),
    Row(#"[">=", "b", "a"]"#, .bool(true)),
    Row(#"["all", true, ["has", "class"], ["!", false]]"#, .bool(true)),
    Row(#"["any", false, ["==", 1, 2]]"#, .bool(false)),
    Row(#"["all"]"#, .bool(true)),
    Row(#"["match", ["get", "class"], "wood", 1, ["park", "grass"], 2, 0]"#, .number(2)),
    Row(#"["match", ["get", "level"], 1, "one", 2, "two", "other"]"#, .string("two")),
    Row(#"["match", ["get", "missing"], "x", 1, 0]"#, .number(0)),
    Row(#"["case", ["==", ["get", "class"], "wood"], "w", ["has", "height"], "h", "none"]"#, .string("h")),
    Row(#"["coalesce", ["get", "missing"], ["get", "name"]]"#, .string("Oak St")),
    Row(#"["step", ["zoom"], "small", 10, "mid", 14, "big"]"#, .string("big")),
    Row(#"["step", ["get", "height"], 0, 10, 1, 30, 2]"#, .number(1)),
    Row(#"["interpolate", ["linear"], ["zoom"], 10, 0, 18, 80]"#, .number(40)),
    Row(#"["interpolate", ["linear"], ["zoom"], 16, 0, 18, 80]"#, .number(0)),
    Row(#"["interpolate", ["linear"], ["zoom"], 1, 0, 2, 80]"#, .number(80)),
    Row(#"["interpolate", ["exponential", 2], ["zoom"], 12, 0, 16, 15]"#, .number(3)),
    Row(#"["interpolate", ["cubic-bezier", 0, 0, 1, 1], ["zoom"], 10, 0, 18, 8]"#, .number(4)),
    Row(
      #"["interpolate", ["linear"], ["zoom"], 10, ["literal", [0, 10]], 18, ["literal", [8, 20]]]"#,
      .array([.number(4), .number(15)])),
    Row(#"["zoom"]"#, .number(14)),
    Row(#"["geometry-type"]"#, .string("Polygon")),
    Row(#"["id"]"#, .number(42)),
    Row(#"["to-number", ["get", "levelText"]]"#, .number(2)),
    Row(#"["to-number", "x", "7"]"#, .number(7)),
    Row(#"["to-number", true]"#, .number(1)),
    Row(#"["to-string", ["get", "height"]]"#, .string("24")),
    Row(#"["to-string", 2.5]"#, .string("2.5")),
    Row(#"["to-string", ["rgb", 255, 0, 0]]"#, .string("rgba(255,0,0,1)")),
    Row(#"["to-boolean", ""]"#, .bool(false)),
    Row(#"["to-boolean", "x"]"#, .bool(true)),
    Row(#"["to-boolean", 0]"#, .bool(false)),
    Row(#"["to-color", ["get", "colour"]]"#, .color(Color(r: 255, g: 0, b: 0))),
    Row(#"["rgba", 0, 128, 255, 0.5]"#, .color(Color(red: 0, green: 128.0 / 255, blue: 1, alpha: 0.5))),
    Row(#"["concat", "Lvl ", ["get", "level"], "!", true]"#, .string("Lvl 2!true")),
    Row(#"["upcase", ["get", "name"]]"#, .string("OAK ST")),
    Row(#"["downcase", "ÀB"]"#, .string("àb")),
    Row(#"["let", "h", ["get", "height"], ["*", ["var", "h"], 2]]"#, .number(48)),
    Row(#"["+", 1, 2, 3]"#, .number(6)),
    Row(#"["-", 5]"#, .number(-5)),
    Row(#"["/", ["get", "height"], 4]"#, .number(6)),
    Row(#"["%", 7, 3]"#, .number(1)),
    Row(#"["^", 2, 10]"#, .number(1024)),
    Row(#"["round", 2.5]"#, .number(3)),
    Row(#"["round", -2.5]"#, .number(-3)),
    Row(#"["max", 1, 7, 3]"#, .number(7)),
    Row(#"["typeof", ["get", "tags"]]"#, .string("array")),
    Row(#"["length", ["get", "tags"]]"#, .number(2)),
    Row(#"["at", 1, ["get", "tags"]]"#, .string("b")),
    Row(#"["number", ["get", "name"], 5]"#, .number(5)),
  ]

  @Test(arguments: rows)
  func evaluates(_ row: Row) throws {
    #expect(try evaluate(row.json) == row.expected)
  }

  @Test func colorsInterpolateInPremultipliedSpace() throws {
    let middle = try evaluate(
      #"["interpolate", ["linear"], ["zoom"], 10, ["rgba", 255, 0, 0, 1], 18, ["rgba", 0, 0, 255, 0]]"#)
    guard case .color(let color) = middle else {
      Issue.record("not a colour")
      return
    }
    // Premultiplied: (0.5, 0, 0, 0.5) → straight red at alpha 0.5 (not purple).
    #expect(abs(color.alpha - 0.5) < 1e-9 && abs(color.red - 1) < 1e-9 && color.blue < 1e-9)
  }

  @Test(arguments: [
    (#"["<", ["get", "class"], 3]"#, "expected two numbers or two strings"),
    (#"["zoom"]"#, "zoom is not available"),
    (#"["to-number", "abc"]"#, "no argument converts"),
    (#"["at", 5, ["get", "tags"]]"#, "out of bounds"),
  ])
  func runtimeErrors(_ json: String, _ message: String) {
    do {
      _ = try evaluate(json, zoom: nil)
      Issue.record("evaluated: \(json)")
    } catch {
      #expect("\(error)".contains(message), "\(error)")
    }
  }

  @Test(arguments: [
    (#"["frobnicate", 1]"#, "test[0]", "unknown expression operator 'frobnicate'"),
    (#"["get"]"#, "test", "'get' expects 1 to 2 argument(s), found 0"),
    (#"["match", ["get", "x"], "a", 1]"#, "test", "'match' expects an input"),
    (#"["step", ["zoom"], 0, 10, 1, 5, 2]"#, "test[5]", "strictly ascending"),
    (#"["interpolate", ["smooth"], ["zoom"], 1, 2]"#, "test[1]", "unknown interpolation type"),
    (#"["var", "nope"]"#, "test", "unknown variable 'nope'"),
    (#"["coalesce", [1, 2]]"#, "test[1]", "arrays of values must be wrapped"),
    (#"["match", ["get", "x"], "a", 1, "a", 2, 0]"#, "test[4]", "appears twice"),
  ])
  func parseErrorsNameThePath(_ json: String, _ path: String, _ message: String) {
    do {
      _ = try ExpressionParser(path: "test").parse(try JSONParser.parse(json))
      Issue.record("parsed: \(json)")
    } catch let error as StyleError {
      #expect(error.path == path, "\(error)")
      #expect(error.message.contains(message), "\(error)")
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test func dependenceAnalysis() throws {
    func parse(_ json: String) throws -> Expression {
      try ExpressionParser(path: "t").parse(try JSONParser.parse(json))
    }
    #expect(try parse(#"["interpolate", ["linear"], ["zoom"], 1, 2, 3, 4]"#).isFeatureConstant)
    #expect(!(try parse(#"["interpolate", ["linear"], ["zoom"], 1, 2, 3, 4]"#).isZoomConstant))
    #expect(!(try parse(#"["get", "x"]"#).isFeatureConstant))
    #expect(try parse(#"["get", "x", ["literal", {}]]"#).isFeatureConstant)
  }
}
