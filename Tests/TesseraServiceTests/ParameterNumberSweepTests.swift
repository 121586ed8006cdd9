import Foundation
import TesseraJSON
import TesseraTestSupport
import Testing

@testable import TesseraService

/// The checked-number sweep of the service, over real HTTP on 127.0.0.1: an example of every
/// Static Maps parameter and every tileserver-gl option (a test fails when a reader's list
/// gains one with no example here), the tileserver-gl static and tile paths, and a POST /render
/// body; every number in them replaced in turn by 1e308, −1e308, 5e-324, −0, 2^63, NaN, ±∞
/// and 1e999. Every request is answered (200, or 4xx with a reason), and the service is
/// answering its probes at the end.
@Suite(.serialized) struct ParameterNumberSweepTests {
  /// One value of each Static Maps parameter, with what it needs beside it.
  static let staticMaps: [String: String] = [
    "size": "size=48x32", "scale": "scale=2", "format": "format=png8", "center": "center=43.73,7.42",
    "zoom": "zoom=13", "heading": "heading=30", "tilt": "tilt=40", "maptype": "maptype=terrain",
    "language": "language=fr", "buildings": "buildings=false",
    "markers": "markers=size:mid%7Ccolor:0xFFFF00%7Clabel:C%7Canchor:24,32%7C43.731,7.421%7C43.732,7.423",
    "path": "path=weight:3%7Ccolor:0x0000ff80%7Cfillcolor:0xFFFF0033%7Cgeodesic:true%7C43.72,7.41%7C43.74,7.43",
    "visible": "visible=43.72,7.41%7C43.75,7.44",
    "style": "style=feature:road%7Celement:geometry%7Cweight:2.5%7Clightness:10",
    "map_id": "map_id=dusk", "key": "key=k", "signature": "signature=s",
  ]
  /// Encoded paths hold numbers too.
  static let extraStaticMaps = ["path=weight:5%7Cenc:_p~iF~ps%7CU_ulLnnqC_mqNvxq%60@"]

  static let tileserverOptions: [String: String] = [
    "path": "path=stroke:red%7Cwidth:4%7C7.41,43.72%7C7.43,43.74", "marker": "marker=7.42,43.73",
    "padding": "padding=0.2", "maxzoom": "maxzoom=15",
  ]

  @Test func everyParameterHasAnExample() {
    #expect(Set(Self.staticMaps.keys) == StaticMapsQuery.parameters)
    #expect(Set(Self.tileserverOptions.keys) == TileserverQuery.options)
  }

  /// Every target made from `target` by putting each hostile value in place of one of its
  /// numbers.
  static func variants(_ target: String) -> [String] {
    HostileNumbers.textVariants(of: target).map(\.text)
  }

  @Test func everyNumberOfEveryParameterIsCheckedOrDrawn() throws {
    let service = try RenderServiceTests.start(workers: 2, queue: 64, deadline: 20)
    defer { service.shutdown() }
    var statuses: [Int: Int] = [:]
    var bad: [String] = []
    func request(_ target: String, method: String = "GET", body: [UInt8] = []) {
      let answer = Watchdog.run(target, seconds: 60) {
        try? LoopbackClient.request(port: service.port, target, method: method, body: body, timeout: 30)
      }
      guard let answer else {
        bad.append("\(target): no answer")
        return
      }
      statuses[answer.status, default: 0] += 1
      if ![200, 204, 400, 403, 404, 413, 414].contains(answer.status) || (answer.status >= 400 && answer.body.isEmpty) {
        bad.append("\(target): \(answer.status) \(String(decoding: answer.body.prefix(200), as: UTF8.self))")
      }
    }
    let base = "/maps/api/staticmap?size=48x32&center=43.73,7.42&zoom=13"
    for (name, parameter) in Self.staticMaps.sorted(by: { $0.key < $1.key }) where !["key", "signature"].contains(name)
    {
      for variant in Self.variants(parameter) {
        let others = base.split(separator: "&").filter { !$0.contains(name + "=") }.joined(separator: "&")
        request(others + "&" + variant)
      }
    }
    for parameter in Self.extraStaticMaps {
      for variant in Self.variants(parameter) { request(base + "&" + variant) }
    }
    for camera in ["7.42,43.73,12", "7.42,43.73,12@30,40", "7.41,43.72,7.43,43.74", "auto"] {
      for size in ["48x32.png", "48x32@2x.webp"] {
        let query = camera == "auto" ? "?" + Self.tileserverOptions.values.sorted().joined(separator: "&") : ""
        for target in Self.variants("/styles/normal/static/\(camera)/\(size)\(query)") { request(target) }
      }
    }
    for target in Self.variants("/styles/normal/static/auto/48x32.png?padding=0.1&maxzoom=14&marker=7.42,43.73") {
      request(target)
    }
    for target in Self.variants("/styles/normal/14/8529/5975@2x.png")
      + Self.variants("/styles/normal/512/13/4264/2987.png")
    {
      request(target)
    }
    // A POST /render body: every number, inline content only.
    let body: JSONValue = [
      "size": ["width": 48, "height": 32], "scale": 1.5,
      "camera": ["latitude": 43.73, "longitude": 7.42, "zoom": 13, "bearing": 20, "viewingAngle": 30],
      "markers": [
        [
          "position": [43.731, 7.421], "rotation": 30, "opacity": 0.5, "zIndex": 2, "groundAnchor": [0.5, 1],
          "infoWindowAnchor": [0.5, 0], "title": "T", "selected": true,
        ]
      ],
      "polylines": [
        [
          "path": [[43.72, 7.41], [43.74, 7.43]], "width": 3, "geodesic": true,
          "spans": [["color": "red", "segments": 0.5]], "dashes": ["colors": ["red"], "lengths": [100, 50]],
        ]
      ],
      "circles": [["center": [43.73, 7.42], "radius": 200, "strokeWidth": 2]],
      "heatmaps": [["points": [[43.73, 7.42, 2]], "radius": 10, "intensity": 2, "gradient": [[0.5, "red"]]]],
      "myLocation": ["position": [43.732, 7.422], "accuracy": 50, "heading": 90],
    ]
    for (path, value) in JSONLeaves.all(body) {
      guard case .number = value else { continue }
      for literal in HostileNumbers.sweepJSON {
        request(
          "/render", method: "POST", body: Array(JSONLeaves.text(body, replacing: path, withLiteral: literal).utf8))
      }
    }
    print("service sweep: \(statuses.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" })")
    #expect(bad.isEmpty, "\(bad.joined(separator: "\n"))")
    #expect(try LoopbackClient.request(port: service.port, "/health").status == 200)
  }
}
