import TesseraJSON
import Testing

/// Numbers read exactly as `Double(String)` reads them, the common ones without making text;
/// fingerprints equal where the text is; cursor paths and number arrays.
@Suite struct JSONNumberTests {
  /// A small deterministic generator (SplitMix64).
  struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func digits(_ count: Int) -> String {
      String((0..<count).map { _ in Character(String(below(10))) })
    }
  }

  /// Number texts of every shape JSON allows: integer parts of 1 to 20 digits, fractions of 0
  /// to 25 digits (with leading and trailing zeros), exponents of either sign up to 400,
  /// signs; coordinates as map data writes them.
  static func texts(count: Int) -> [String] {
    var generator = Generator(state: 40)
    var texts: [String] = []
    for index in 0..<count {
      var text = generator.below(4) == 0 ? "-" : ""
      let integerDigits = generator.below(3) == 0 ? 1 : 1 + generator.below(20)
      var integer = generator.digits(integerDigits)
      while integer.count > 1 && integer.first == "0" { integer.removeFirst() }
      text += index % 7 == 0 ? "0" : integer
      if generator.below(3) > 0 {
        let zeros = generator.below(4) == 0 ? String(repeating: "0", count: generator.below(12)) : ""
        text += "." + zeros + generator.digits(1 + generator.below(25))
      }
      if generator.below(3) == 0 {
        let exponent = generator.below(4) == 0 ? generator.below(400) : generator.below(30)
        text += (generator.below(2) == 0 ? "e" : "E") + ["", "+", "-"][generator.below(3)] + String(exponent)
      }
      texts.append(text)
    }
    let edges = [
      "0", "-0", "0.0", "-0.0", "0e5", "-0e-5", "1", "9007199254740992", "9007199254740993", "9007199254740991",
      "18446744073709551615", "18446744073709551616", "1e22", "1e23", "1e-22", "1e-23", "4.35e22", "123456789e-22",
      "0.1", "0.2", "0.3", "7.4246", "43.7384", "-123.456789012345", "2.2250738585072014e-308",
      "4.9e-324", "1.7976931348623157e308", "1e-400", "0.00000000000000000000000000001", "1e00000000000000022",
      "1.000000000000000000000000001", "123.4500000000000000000", "5e-324", "1E+2", "1e+0022",
      "0e99999", "-0e99999", "-0e-99999", "1.5e00001", "1" + String(repeating: "0", count: 400) + "e-398",
      "0." + String(repeating: "0", count: 300) + "1e300", "-9007199254740992e-22", "9007199254740992e22",
    ]
    return texts + edges
  }

  @Test func numbersAreTheDoublesTheirTextNames() throws {
    for text in Self.texts(count: 20_000) {
      let expected = try #require(Double(text), "\(text)")
      guard expected.isFinite else { continue }
      let parsed = try JSONParser.parse(text).number
      #expect(parsed?.bitPattern == expected.bitPattern, "\(text): \(parsed.map { "\($0)" } ?? "nil") != \(expected)")
      // Inside an array, between other tokens, the same.
      let inArray = try JSONParser.parse("[\(text), 1]").array?.first?.number
      #expect(inArray?.bitPattern == expected.bitPattern, "[\(text), 1]")
    }
  }

  @Test func numbersBeyondDoublesAreStillRefused() {
    let refused: [(text: String, message: String)] = [
      ("1e400", "out of range"), ("-1e99999", "out of range"),
      ("1" + String(repeating: "0", count: 400), "out of range"), ("01", "unexpected text after"),
      ("1.", "digits expected after '.'"), ("-", "invalid number"), ("1e", "exponent digits expected"),
      ("1e+", "exponent digits expected"), (".5", "unexpected character"), ("+1", "unexpected character"),
      ("--1", "invalid number"), ("[1.5e]", "exponent digits expected"),
    ]
    for (text, message) in refused {
      do {
        _ = try JSONParser.parse(text)
        Issue.record("'\(text)' parsed")
      } catch {
        #expect(error.message.contains(message), "\(text): \(error)")
      }
    }
  }

  @Test func fingerprintsFollowTheText() throws {
    let text = #"{"type": "FeatureCollection", "features": [{"geometry": [[7.42, 43.73], [7.43, 43.74]], "p": "é"}]}"#
    let a = try JSONParser.parse(text)
    let b = try JSONParser.parse(text)
    #expect(JSONFingerprint(a).hex == JSONFingerprint(b).hex)
    #expect(JSONFingerprint(a).hex.count == 16)
    #expect(JSONFingerprint(0.0).hex == JSONFingerprint(-0.0).hex, "0 and -0 are written alike")
    // Values that write other text fingerprint otherwise.
    let different: [(JSONValue, JSONValue)] = [
      ([1], 1), ("ab", ["a", "b"]), (["a": "b"], ["ab": ""]), (["a": 1, "b": 2], ["b": 2, "a": 1]),
      ("\u{e9}", "e\u{301}"), (JSONValue.null, false), (false, true), ([[]], [[], []]), ("", []),
      (
        try JSONParser.parse(
          #"{"type": "FeatureCollection", "features": [{"geometry": [[7.42, 43.73], [7.43, 43.75]], "p": "é"}]}"#), a
      ),
    ]
    for (first, second) in different {
      #expect(JSONFingerprint(first).hex != JSONFingerprint(second).hex, "\(first) and \(second)")
    }
    var extended = JSONFingerprint(a)
    extended.add(text: "|18")
    #expect(extended.hex != JSONFingerprint(a).hex)
  }

  @Test func cursorPathsAreWrittenAsBefore() throws {
    let root = JSONCursor(root: try JSONParser.parse(#"{"a": [{"b": [[1, 2]]}], "c": 3}"#), source: "doc")
    #expect(root.path == "")
    #expect(root["a"].path == "a")
    #expect(root[0].path == "[0]")
    #expect(root["a"][0]["b"][0][1].path == "a[0].b[0][1]")
    #expect(try root["a"].elements().map(\.path) == ["a[0]"])
    #expect(try root["a"][0]["b"][0].elements().map(\.path) == ["a[0].b[0][0]", "a[0].b[0][1]"])
    #expect(try root.members().map(\.cursor.path) == ["a", "c"])
    let given = JSONCursor(field: "markers[2].position", value: [1, 2], source: "request")
    #expect(given.path == "markers[2].position")
    #expect(given[1].path == "markers[2].position[1]")
    #expect(given["x"].path == "markers[2].position.x")
    let empty = JSONCursor(field: "", value: ["x": 1], source: "request")
    #expect(empty["x"].path == "x")
  }

  @Test func numberArraysNameTheFirstWrongElement() throws {
    let root = JSONCursor(
      root: try JSONParser.parse(#"{"p": [1, 2.5, -3], "q": [1, "2", null], "r": 4}"#), source: "doc")
    #expect(try root["p"].numbers() == [1, 2.5, -3])
    #expect(try JSONCursor(field: "v", value: [], source: "s").numbers() == [])
    do {
      _ = try root["q"].numbers()
      Issue.record("a string read as a number")
    } catch {
      #expect(error.description == "doc: q[1]: expected a number, found a string")
    }
    do {
      _ = try root["r"].numbers()
      Issue.record("a number read as an array")
    } catch {
      #expect(error.description == "doc: r: expected an array, found a number")
    }
    do {
      _ = try JSONCursor(field: "v", value: [1, .number(.infinity)], source: "s").numbers()
      Issue.record("infinity read")
    } catch {
      #expect(error.description.hasPrefix("s: v[1]: expected a finite number"), "\(error)")
    }
  }
}
