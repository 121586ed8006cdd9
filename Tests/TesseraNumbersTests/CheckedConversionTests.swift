import Foundation
import TesseraNumbers
import TesseraTestSupport
import Testing

/// The conversions every reader and every computation use instead of `Int(someDouble)`.
@Suite struct CheckedConversionTests {
  static let hostile: [Double] = [
    .nan, .infinity, -.infinity, 1e308, -1e308, 9_223_372_036_854_775_808, -9_223_372_036_854_777_856,
    18_446_744_073_709_551_616, .leastNonzeroMagnitude, -0.0,
  ]

  @Test func clampingNeverTrapsAndKeepsValuesInRange() {
    for value in Self.hostile {
      _ = Int(clamping: value)
      _ = Int8(clamping: value)
      _ = Int32(clamping: value)
      _ = UInt8(clamping: value)
      _ = UInt32(clamping: value)
      _ = UInt64(clamping: value)
      _ = Int64(clamping: Float(value))
    }
    #expect(Int(clamping: Double.nan) == 0)
    #expect(Int(clamping: 1e308) == .max)
    #expect(Int(clamping: -1e308) == .min)
    #expect(UInt8(clamping: -3.5) == 0)
    #expect(UInt8(clamping: 255.9) == 255)
    #expect(Int32(clamping: 3_000_000_000.0) == .max)
    // In range it is the standard conversion: rounded toward zero.
    #expect(Int(clamping: -2.7) == -2)
    #expect(Int(clamping: 2.7) == 2)
    #expect(Int(clamping: 9_007_199_254_740_992.0) == 9_007_199_254_740_992)
  }

  /// Clamping is the value rounded toward zero wherever it fits, for every width and sign, from
  /// Double and Float, near the bounds as well as inside (the processor's conversion inside,
  /// the generic one at the edges of the 64-bit types).
  @Test func clampingIsTheTruncatedValueInRange() {
    func expected<Integer: FixedWidthInteger, Source: BinaryFloatingPoint>(_ value: Source, as _: Integer.Type)
      -> Integer
    {
      if value.isNaN { return 0 }
      return Integer(exactly: value.rounded(.towardZero)) ?? (value < 0 ? .min : .max)
    }
    func check<Integer: FixedWidthInteger>(_ type: Integer.Type, _ values: [Double]) {
      for value in values {
        #expect(Integer(clamping: value) == expected(value, as: type), "\(type) from \(value)")
        let single = Float(value)
        #expect(Integer(clamping: single) == expected(single, as: type), "\(type) from Float \(single)")
      }
    }
    var random = SeededRandom(seed: 40)
    var values: [Double] = Self.hostile + [0.5, -0.5, 0.999_999_999, -0.999_999_999, 1, -1]
    for bound in [127.0, 128, 255, 256, 32_767, 65_535, 2_147_483_647, 4_294_967_295, 9_007_199_254_740_992] {
      for edge in [bound, -bound, bound - 1, -bound - 1, bound + 0.5, -bound - 0.5] {
        values += [edge, edge.nextUp, edge.nextDown]
      }
    }
    for scale in [1.0, 300, 70_000, 5e9, 1e19] {
      for _ in 0..<500 { values.append(Double.random(in: -scale...scale, using: &random)) }
    }
    values += [
      9_223_372_036_854_774_784, 9_223_372_036_854_775_808, 18_446_744_073_709_549_568, -9_223_372_036_854_775_808,
    ]
    check(Int8.self, values)
    check(UInt8.self, values)
    check(Int16.self, values)
    check(UInt16.self, values)
    check(Int32.self, values)
    check(UInt32.self, values)
    check(Int64.self, values)
    check(UInt64.self, values)
    check(Int.self, values)
  }

  @Test func checkedRefusesWhatIsNotAWholeNumberInRange() throws {
    for value in Self.hostile.filter({ $0 != 0 }) + [0.5, -1, 300] {
      #expect(throws: NumberConversionError.self) { try UInt8(checked: value, field: "size", in: 0...255) }
    }
    #expect(try Int(checked: 42.0, field: "zoom", in: 0...100) == 42)
    #expect(try Int(checked: -0.0, field: "z") == 0)
    do {
      _ = try Int(checked: 1e308, field: "markers[0].zIndex", in: -10...10)
      Issue.record("1e308 was accepted")
    } catch {
      #expect(error.description == "markers[0].zIndex: expected an integer in -10…10, found 1e+308")
    }
  }

  @Test func roundingTakesFractionsButNotHostileValues() throws {
    #expect(try Int(rounding: 2.5, field: "n") == 3)
    #expect(try Int(rounding: -2.5, field: "n") == -3)
    for value in [Double.nan, .infinity, 1e308, 9_223_372_036_854_775_808] {
      #expect(throws: NumberConversionError.self) { try Int(rounding: value, field: "n") }
    }
  }
}

/// The lint: in product code an unchecked conversion from a floating-point number to an integer
/// does not compile. The rule lives in TesseraNumbers (deprecated shadows of every such
/// conversion, made errors by the build settings) and reaches the files that import it.
@Suite struct UncheckedConversionLintTests {
  /// Every Swift file of the product imports TesseraNumbers, so none escapes the rule.
  @Test func everyProductFileImportsTheCheckedNumbers() throws {
    var missing: [String] = []
    var count = 0
    for folder in ["Sources", "Tools", "Shaders"] {
      let root = PackagePaths.path(folder)
      guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
      for case let relative as String in walker
      where relative.hasSuffix(".swift") && !relative.hasPrefix("TesseraNumbers/") {
        count += 1
        let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
        if !text.split(separator: "\n").contains("import TesseraNumbers") { missing.append("\(folder)/\(relative)") }
      }
    }
    #expect(count > 250)
    #expect(missing.isEmpty, "add `import TesseraNumbers` to: \(missing.joined(separator: ", "))")
  }

  /// The rule itself, checked with this toolchain: `Int(someDouble)` in a file that imports the
  /// shadows is flagged, `Int(clamping:)` and integer conversions are not.
  @Test func theCompilerFlagsAnUncheckedConversion() throws {
    let folder = NSTemporaryDirectory() + "tessera-lint-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let probe = folder + "/probe.swift"
    try """
    func probe(_ x: Double, _ y: Float, _ n: Int64) -> [Int] {
      [Int(x), Int(clamping: x), Int(n), Int(UInt8(y))]
    }
    """.write(toFile: probe, atomically: true, encoding: .utf8)
    let numbers = PackagePaths.path("Sources/TesseraNumbers")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.swiftc)
    process.arguments = [
      "-typecheck", "-package-name", "probe", "-module-name", "Probe",
      numbers + "/CheckedConversion.swift", numbers + "/UncheckedConversions.swift", probe,
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    try process.run()
    let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let flagged = output.split(separator: "\n").filter { $0.contains("probe.swift") && $0.contains("deprecated") }
    // Int(x) and UInt8(y) are flagged; Int(clamping: x), Int(n) and Int(UInt8) are not.
    #expect(flagged.count == 2, "\(output)")
    #expect(flagged.allSatisfy { $0.contains("probe.swift:2:") }, "\(output)")
  }

  /// The Swift compiler of this toolchain.
  static var swiftc: String {
    for candidate in ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
    where FileManager.default.isExecutableFile(atPath: candidate) {
      return candidate
    }
    return "swiftc"
  }
}
