import TesseraJSON
import Testing

@Suite struct JSONParserTests {
  @Test func parsesEveryKindAndKeepsKeyOrder() throws {
    let value = try JSONParser.parse(
      #"{"b": [1, -2.5e3, 0.125], "a": {"x": true, "y": null}, "s": "t\u00e9\n\ud83d\ude00"}"#)
    #expect(value.object?.keys == ["b", "a", "s"])
    #expect(value["b"] == [1, -2500, 0.125])
    #expect(value["a"]?["x"] == true)
    #expect(value["a"]?["y"] == JSONValue.null)
    #expect(value["s"]?.string == "té\n😀")
  }

  @Test func duplicateKeysKeepTheLastValueAtTheFirstPosition() throws {
    let value = try JSONParser.parse(#"{"a": 1, "b": 2, "a": 3}"#)
    #expect(value.object?.keys == ["a", "b"])
    #expect(value["a"] == 3)
  }

  @Test(arguments: [
    ("", 1, 1, "unexpected end of input"), ("{\"a\" 1}", 1, 6, "expected ':'"),
    ("[1,\n 2,\n x]", 3, 2, "unexpected character 'x'"),
    ("{\"a\": 01}", 1, 8, "expected ',' or '}'"), ("\"abc", 1, 5, "unterminated string"),
    ("[1] 2", 1, 5, "unexpected text after"),
    ("{\"a\": tru}", 1, 7, "invalid literal"), ("\"\\ud800\"", 1, 8, "unpaired surrogate"),
    ("[1.]", 1, 4, "digits expected"),
    ("\"a\tb\"", 1, 3, "control character"),
  ])
  func reportsLineAndColumn(_ text: String, _ line: Int, _ column: Int, _ message: String) {
    do {
      _ = try JSONParser.parse(text)
      Issue.record("'\(text)' parsed")
    } catch {
      #expect(error.line == line && error.column == column, "\(error)")
      #expect(error.message.contains(message), "\(error)")
    }
  }

  @Test func sortedKeysWriteEqualObjectsAlike() throws {
    let a = try JSONParser.parse(Array(#"{"b": 1, "a": {"d": [1, {"z": 0, "y": 1}], "c": null}}"#.utf8))
    let b = try JSONParser.parse(Array(#"{"a": {"c": null, "d": [1, {"y": 1, "z": 0}]}, "b": 1}"#.utf8))
    #expect(a.serialized() != b.serialized())
    #expect(a.serialized(sortingKeys: true) == b.serialized(sortingKeys: true))
    #expect(a.serialized(sortingKeys: true) == #"{"a":{"c":null,"d":[1,{"y":1,"z":0}]},"b":1}"#)
  }

  @Test func deepNestingIsRefused() {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    #expect(throws: Never.self) { try JSONParser.parse(fine) }
  }

  @Test func invalidUTF8IsRefused() {
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
  }

  @Test func writerRoundTrips() throws {
    let value: JSONValue = ["name": "a \"quoted\"\tname", "n": [1, 2.5, -0.001, 1e21], "flag": false, "none": nil]
    for pretty in [false, true] {
      #expect(try JSONParser.parse(value.serialized(pretty: pretty)) == value)
    }
    #expect(JSONValue.format(3) == "3")
    #expect(JSONValue.format(.nan) == "null")
  }

  @Test func mutatedDocumentsNeverCrash() throws {
    let seed = Array(
      #"{"size": {"width": 1024, "height": 768}, "camera": {"latitude": 43.7, "zoom": 16}, "list": [1, "two", [3], {"x": null}], "s": "é\u0041"}"#
        .utf8)
    var state: UInt64 = 12345
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33)
    }
    var parsed = 0
    for _ in 0..<5000 {
      var bytes = seed
      for _ in 0..<(1 + next() % 3) {
        let position = next() % bytes.count
        switch next() % 3 {
        case 0: bytes[position] = UInt8(next() % 256)
        case 1: bytes.remove(at: position)
        default:
          let tokens = Array(#"{}[]",:0e-\"#.utf8)
          bytes.insert(tokens[next() % tokens.count], at: position)
        }
      }
      if (try? JSONParser.parse(bytes)) != nil { parsed += 1 }
    }
    #expect(parsed < 5000)
  }
}

@Suite struct JSONCursorTests {
  let root = JSONCursor(
    root: try! JSONParser.parse(#"{"camera": {"zoom": "high", "bearing": 30}, "layers": [{"id": 1}]}"#),
    source: "scene.json")

  @Test func readsPresentFieldsAndDefaults() throws {
    #expect(try root["camera"]["bearing"].number() == 30)
    #expect(try root["camera"]["tilt"].number(default: 0) == 0)
    #expect(try root["camera"]["tilt"].optionalNumber() == nil)
    #expect(try root["layers"].elements().count == 1)
  }

  @Test func errorsNameTheFileFieldAndExpectation() {
    do {
      _ = try root["camera"]["zoom"].number()
      Issue.record("a string read as a number")
    } catch {
      #expect(error.description == "scene.json: camera.zoom: expected a number, found a string")
    }
    do {
      _ = try root["layers"][0]["id"].string()
      Issue.record("a number read as a string")
    } catch {
      #expect(error.description == "scene.json: layers[0].id: expected a string, found a number")
    }
    #expect(throws: JSONFieldError.self) { try root["missing"].number() }
  }
}
