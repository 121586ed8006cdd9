import TesseraNumbers
import Testing

/// The one FNV-1a every file name, cache key and entity tag uses gives the published values
/// (the reference vectors of the FNV authors), continues across pieces, and pads to 16 digits.
@Suite struct FNV1aTests {
  @Test func itGivesThePublishedValues() {
    #expect(FNV1a.hash("") == 0xcbf2_9ce4_8422_2325)
    #expect(FNV1a.hash("a") == 0xaf63_dc4c_8601_ec8c)
    #expect(FNV1a.hash("foobar") == 0x8594_4171_f739_67e8)
    #expect(FNV1a.hash([UInt8]("foobar".utf8)) == FNV1a.hash("foobar"))
  }

  @Test func piecesContinueOneAnother() {
    #expect(FNV1a.hash("bar") != FNV1a.hash("foobar"))
    #expect(FNV1a.hash("bar".utf8, continuing: FNV1a.hash("foo")) == FNV1a.hash("foobar"))
  }

  @Test func paddedHexHasSixteenDigits() {
    #expect(FNV1a.paddedHex(0x1f) == "000000000000001f")
    #expect(FNV1a.paddedHex(FNV1a.hash("foobar")) == "85944171f73967e8")
    #expect(FNV1a.paddedHex(.max) == "ffffffffffffffff")
  }
}
