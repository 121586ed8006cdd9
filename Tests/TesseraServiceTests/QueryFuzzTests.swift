import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraService

/// Bounded seeded mutation of request targets and POST bodies: the Static Maps and tileserver-gl
/// query parsers and the body reader either build a scene or throw a ServiceError, never crash
/// or hang.
@Suite struct QueryFuzzTests {
  /// Request targets that parse: Google's documented kinds of parameters and tileserver-gl's forms.
  static let seeds = [
    "/maps/api/staticmap?center=40.714728,-73.998672&zoom=12&size=400x400&maptype=roadmap&format=png8",
    "/maps/api/staticmap?size=512x512&markers=size:mid%7Ccolor:0xFFFF00%7Clabel:C%7C40.718217,-73.998284"
      + "&markers=icon:https://icons.example.org/pin.png%7Canchor:topleft%7C40.7,-74&scale=2",
    "/maps/api/staticmap?size=400x400&path=weight:3%7Ccolor:0x0000ff80%7Cfillcolor:0xFFFF0033%7Cgeodesic:true"
      + "%7C40.737102,-73.990318%7C40.749825,-73.987963&visible=40.7,-74%7C40.8,-73.9&heading=30&tilt=45",
    "/maps/api/staticmap?size=400x400&path=enc:_p~iF~ps%7CU_ulLnnqC_mqNvxq`@&style=feature:water%7Ccolor:0x00ff00"
      + "&language=fr&buildings=true&format=jpg",
  ]
  static let tileserverSeeds = [
    ("-74,40,15@30,45", "320x240@2x.png", "path=stroke:red%7Cwidth:4%7C-74.01,39.99%7C-73.99,40.01&marker=-74,40"),
    ("auto", "200x150.webp", "path=-74.01,39.99%7C-73.99,40.01&padding=0.2&maxzoom=15"),
    ("-74.01,39.99,-73.99,40.01", "200x150.jpg", "marker=-74,40"),
  ]

  static func request(_ target: String, method: String = "GET", body: [UInt8] = []) -> HTTPRequest {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var arguments: [(key: String, value: String)] = []
    if parts.count > 1 {
      for pair in parts[1].split(separator: "&") {
        let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let key = String(keyValue[0]).removingPercentEncoding ?? String(keyValue[0])
        let value = keyValue.count > 1 ? String(keyValue[1]) : ""
        arguments.append((key, value.removingPercentEncoding ?? value))
      }
    }
    return HTTPRequest(
      method: method, path: String(parts[0]), arguments: arguments, targetLength: target.utf8.count, rawTarget: target,
      body: body, bodyTooLarge: false, client: "127.0.0.1", handle: nil)
  }

  @Test func seedsParse() throws {
    let configuration = ServiceConfiguration()
    for seed in Self.seeds {
      #expect(throws: Never.self, "\(seed)") {
        _ = try StaticMapsQuery(Self.request(seed), configuration: configuration).scene(
          icons: [:], configuration: configuration)
      }
    }
    for (camera, size, query) in Self.tileserverSeeds {
      #expect(throws: Never.self, "\(camera)/\(size)") {
        _ = try TileserverQuery(
          style: .mapType(.normal), camera: camera, size: size, request: Self.request("/x?" + query),
          configuration: configuration)
      }
    }
  }

  @Test func mutatedQueriesAndBodiesNeverCrash() {
    let configuration = ServiceConfiguration()
    var random = SeededRandom(seed: 0x5E7A_11CE)
    var parsed = 0
    var refused = 0
    for iteration in 0..<3000 {
      let outcome: Result<Void, ServiceError>
      switch iteration % 3 {
      case 0:
        let seed = Self.seeds[iteration / 3 % Self.seeds.count]
        let mutant = String(decoding: random.mutate(Array(seed.utf8)), as: UTF8.self)
        outcome = Result { () throws(ServiceError) in
          _ = try StaticMapsQuery(Self.request(mutant), configuration: configuration).scene(
            icons: [:], configuration: configuration)
        }
      case 1:
        let (camera, size, query) = Self.tileserverSeeds[iteration / 3 % Self.tileserverSeeds.count]
        let mutant = String(decoding: random.mutate(Array("\(camera)/\(size)?\(query)".utf8)), as: UTF8.self)
        let path = mutant.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let pieces = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        outcome = Result { () throws(ServiceError) in
          _ = try TileserverQuery(
            style: .mapType(.normal), camera: pieces.first ?? "", size: pieces.count > 1 ? pieces[1] : "",
            request: Self.request("/x?" + (mutant.split(separator: "?", maxSplits: 1).dropFirst().first ?? "")),
            configuration: configuration)
        }
      default:
        let (_, _, query) = Self.tileserverSeeds[iteration / 3 % Self.tileserverSeeds.count]
        let json = #"{"path": ["-74.01,39.99|-73.99,40.01"], "marker": "-74,40", "padding": 0.2, "maxzoom": 15}"#
        let body = random.mutate(Array((iteration % 2 == 0 ? query : json).utf8))
        outcome = Result { () throws(ServiceError) in
          _ = try TileserverQuery(
            style: .mapType(.normal), camera: "auto", size: "100x100.png",
            request: try Self.request("/x", method: "POST", body: body).addingBodyArguments(),
            configuration: configuration)
        }
      }
      switch outcome {
      case .success: parsed += 1
      case .failure(let error):
        #expect(error.status == 400 || error.status == 403 || error.status == 404, "\(error.reason)")
        #expect(!error.reason.isEmpty)
        refused += 1
      }
    }
    #expect(parsed + refused == 3000)
    #expect(parsed > 300 && refused > 300, "parsed \(parsed), refused \(refused)")
  }
}
