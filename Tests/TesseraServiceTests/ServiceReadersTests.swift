import Foundation
import Testing

@testable import TesseraService

/// The in-memory requests of the service's readers (the fuzz target's entry point) and
/// what the readers make of them; regression inputs of the fuzz target's request decoder.
@Suite struct ServiceReadersTests {
  /// Arguments as pairs, to compare.
  static func pairs(_ request: HTTPRequest) -> [[String]] { request.arguments.map { [$0.key, $0.value] } }

  /// libmicrohttpd's split, as `tessera serve` receives it: the path percent-decoded with `+`
  /// kept; query keys and values with `+` a space, then percent-decoded (a `%` without two hex
  /// digits kept); empty pieces are arguments but the last; everything ends at a decoded NUL.
  @Test func targetsAreSplitAsTheServerSplitsThem() {
    let first = ServiceReaders.request(target: "/a+b%20c%2Fd/x?k+1=v+2%2B3&e&f=&%41=%zz&g=%&h=a=b")
    #expect(first.path == "/a+b c/d/x")
    #expect(
      Self.pairs(first) == [["k 1", "v 2+3"], ["e", ""], ["f", ""], ["A", "%zz"], ["g", "%"], ["h", "a=b"]])
    #expect(first.method == "GET")
    let second = ServiceReaders.request(target: "/p?a=1&&=v&b&&c=%3D&d=x=y&e=%26&")
    #expect(
      Self.pairs(second) == [
        ["a", "1"], ["", ""], ["", "v"], ["b", ""], ["", ""], ["c", "="], ["d", "x=y"], ["e", "&"],
      ])
    let third = ServiceReaders.request(target: "/x%00y/%2b%e2%82%ac?a=1%002&b%00c=3&x=1?y=2#f&z=%4")
    #expect(third.path == "/x")
    #expect(Self.pairs(third) == [["a", "1"], ["b", "3"], ["x", "1?y=2#f"], ["z", "%4"]])
    #expect(ServiceReaders.request(target: "/p?").arguments.isEmpty)
    let post = ServiceReaders.request(target: "/render", body: [0x7B, 0x7D], contentType: "application/json")
    #expect(post.method == "POST")
    #expect(post.header("content-type") == "application/json")
  }

  /// Each kind of request reaches the readers' end: a scene whose markers and overlays are read
  /// and whose camera is fitted.
  @Test func eachReaderGivesAScene() {
    func read(_ target: String, _ body: String = "", type: String? = nil) -> [String] {
      ServiceReaders.exercise(target: target, body: Array(body.utf8), contentType: type)
    }
    #expect(
      read(
        "/maps/api/staticmap?size=400x300&markers=size:mid%7Ccolor:red%7Clabel:C%7C40.7,-74"
          + "&markers=icon:https://icons.example.org/pin.png|40.71,-74&path=geodesic:true|40.7,-74|40.8,-73.9"
          + "&style=feature:water|color:0x0000ff") == ["staticmap"])
    #expect(
      read(
        "/styles/normal/static/auto/300x200.png", "path=stroke:red%7C-74.01,39.99%7C-73.99,40.01&marker=-74,40",
        type: "application/x-www-form-urlencoded") == ["tileserver-static"])
    // A JSON body of options is also a scene whose fields are all unknown (warnings, not errors).
    #expect(
      read("/styles/terrain/static/-74,40,15@30,45/320x240@2x.png", #"{"marker": ["-74,40"], "maxzoom": 15}"#)
        == ["tileserver-static", "render"])
    #expect(read("/styles/normal/512/13/4264/2987@2x.webp") == ["tile"])
    #expect(
      read(
        "/render?format=webp",
        #"{"size": {"width": 200, "height": 100}, "markers": [{"position": [43.7, 7.4], "label": "A"}], "#
          + #""circles": [{"center": [43.7, 7.4], "radius": 500}], "myLocation": {"position": [43.7, 7.4]}}"#)
        == ["render"])
  }
}
