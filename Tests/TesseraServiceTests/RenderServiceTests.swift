import Dispatch
import Foundation
import Synchronization
import Tessera
import TesseraImage
import TesseraService
import TesseraTestSupport
import Testing

/// `tessera serve` over real HTTP on 127.0.0.1: the Static Maps endpoint, its errors, caching
/// headers, load shedding and graceful shutdown.
@Suite(.serialized) struct RenderServiceTests {
  static func start(
    workers: Int = 2, queue: Int = 8, deadline: Double = 30, configure: (inout ServiceConfiguration) -> Void = { _ in }
  ) throws -> RenderService {
    var configuration = ServiceConfiguration()
    configuration.port = 0
    configure(&configuration)
    configuration.workers = workers
    configuration.queueLimit = queue
    configuration.deadline = deadline
    return try RenderService(configuration: configuration, gpu: .surfaceless)
  }

  static let target =
    "/maps/api/staticmap?center=40,-74&zoom=16&size=320x240&tilt=45&heading=30"
    + "&markers=color:blue%7C40.001,-74.001&path=color:0xff0000ff%7Cweight:5%7C39.999,-74.003%7C40.002,-73.998"

  @Test func aStaticMapIsTheImageTesseraRenderMakes() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    let response = try LoopbackClient.request(port: service.port, RenderServiceTests.target)
    #expect(response.status == 200)
    #expect(response.header("Content-Type") == "image/png")
    #expect(response.header("Cache-Control") == "public, max-age=86400")
    // The same camera, marker and path rendered by the library (as `tessera render` does).
    let scene = try Scene.parse(
      [
        "size": ["width": 320, "height": 240],
        "camera": ["latitude": 40, "longitude": -74, "zoom": 16, "bearing": 30, "viewingAngle": 45],
        "markers": [["position": [40.001, -74.001], "color": "rgba(0, 0, 255, 1.0)"]],
        "polylines": [
          [
            "path": [[39.999, -74.003], [40.002, -73.998]], "color": "rgba(255, 0, 0, 1.0)", "width": 5,
            "geodesic": false,
          ]
        ],
      ], path: FileManager.default.currentDirectoryPath + "/request.json")
    // Google's default format is the 8-bit palette PNG (`tessera render --format png8`).
    let image = try Map(scene: scene, gpu: .surfaceless).snapshot().image
    let expected = try ImageCodec.encode(image, as: .png, palette: true)
    #expect(response.body == expected, "served \(response.body.count) bytes, rendered \(expected.count)")
    let full = try LoopbackClient.request(port: service.port, RenderServiceTests.target + "&format=png32")
    #expect(full.body == (try ImageCodec.encode(image, as: .png)))
    let gif = try LoopbackClient.request(port: service.port, RenderServiceTests.target + "&format=gif")
    #expect(gif.status == 200 && gif.header("Content-Type") == "image/gif")
    #expect(gif.body == (try ImageCodec.encode(image, as: .gif)))
    // Google's jpg is progressive (start-of-frame marker FFC2), jpg-baseline baseline (FFC0).
    func startOfFrame(_ format: String) throws -> UInt8? {
      let body = try LoopbackClient.request(port: service.port, RenderServiceTests.target + "&format=" + format).body
      return (1..<body.count).first { body[$0 - 1] == 0xFF && (body[$0] == 0xC0 || body[$0] == 0xC2) }.map { body[$0] }
    }
    #expect(try startOfFrame("jpg") == 0xC2)
    #expect(try startOfFrame("jpg-baseline") == 0xC0)
  }

  @Test func eachRequestDrawsItsOwnPaths() throws {
    // One worker renders both: the second map must not keep the first one's path.
    let service = try RenderServiceTests.start(workers: 1)
    defer { service.shutdown() }
    let base = "/maps/api/staticmap?center=0,0&zoom=10&size=64x64&maptype=roadmap"
    let red = try LoopbackClient.request(port: service.port, base + "&path=color:0xff0000ff%7Cweight:8%7C0,-1%7C0,1")
    let plain = try LoopbackClient.request(port: service.port, base)
    #expect(red.status == 200 && plain.status == 200)
    let redImage = try PNGCodec.decode(red.body, source: "red")
    let plainImage = try PNGCodec.decode(plain.body, source: "plain")
    #expect(redImage.pixel(x: 32, y: 32).r > 200 && redImage.pixel(x: 32, y: 32).g < 60)
    #expect(plainImage.pixel(x: 32, y: 32) != redImage.pixel(x: 32, y: 32))
  }

  @Test func cachingHeadersHeadAndNotModified() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    let first = try LoopbackClient.request(port: service.port, RenderServiceTests.target)
    let tag = try #require(first.header("ETag"))
    let again = try LoopbackClient.request(
      port: service.port, RenderServiceTests.target, headers: ["If-None-Match": tag])
    #expect(again.status == 304 && again.body.isEmpty)
    let head = try LoopbackClient.request(port: service.port, RenderServiceTests.target, method: "HEAD")
    #expect(head.status == 200 && head.body.isEmpty && head.header("ETag") == tag)
    #expect(head.header("Content-Length") == String(first.body.count))
  }

  @Test func badRequestsGetGooglesStatusesWithAReason() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    func check(_ target: String, _ status: Int, _ reason: String, method: String = "GET") throws {
      let response = try LoopbackClient.request(port: service.port, target, method: method)
      let text = String(decoding: response.body, as: UTF8.self)
      #expect(response.status == status, "\(target.prefix(120)): \(response.status) \(text)")
      #expect(text.contains(reason), "\(target.prefix(120)): \(text)")
    }
    try check("/maps/api/staticmap?center=40,-74&zoom=16", 400, "size parameter is required")
    try check("/maps/api/staticmap?center=40,-74&zoom=16&size=641x100", 400, "larger than 640x640")
    try check("/maps/api/staticmap?center=40,-74&zoom=16&size=100x100&scale=4", 400, "scale must be 1 or 2")
    try check("/maps/api/staticmap?center=Brooklyn+Bridge&zoom=13&size=100x100", 400, "no geocoder")
    try check("/maps/api/staticmap?center=40,-74&size=100x100", 400, "center and zoom are both required")
    try check("/maps/api/staticmap?center=40,-74&zoom=16&size=100x100&maptype=moon", 400, "maptype must be")
    try check("/maps/api/staticmap?center=40,-74&zoom=16&size=100x100&format=bmp", 400, "format must be png, png8")
    try check("/maps/api/staticmap?center=40,-74&zoom=16&size=100x100&markers=size:huge%7C40,-74", 400, "marker size")
    try check("/maps/api/staticmap?center=40,-74&zoom=16&size=100x100&path=40,-74", 400, "at least two points")
    try check(
      "/maps/api/staticmap?center=40,-74&zoom=16&size=100x100&style=feature:roads%7Ccolor:0xff0000", 400,
      "unknown feature")
    try check(
      "/maps/api/staticmap?size=100x100&path=" + String(repeating: "40.0,-74.0%7C", count: 1400), 414, "longer than")
    try check("/nowhere", 404, "no such endpoint")
    try check("/health", 405, "not allowed", method: "DELETE")
    // A request that partly fails still gets its map, with a warning header.
    let warned = try LoopbackClient.request(
      port: service.port, "/maps/api/staticmap?size=100x100&markers=icon:http://example.com/x.png%7C40,-74")
    #expect(
      warned.status == 200 && (warned.header("X-Staticmap-API-Warning") ?? "").contains("not on an allowed icon host"))
  }

  @Test func healthReadinessAndMetrics() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    #expect(try LoopbackClient.request(port: service.port, "/health").status == 200)
    #expect(try LoopbackClient.request(port: service.port, "/readyz").status == 200)
    _ = try LoopbackClient.request(port: service.port, "/maps/api/staticmap?center=0,0&zoom=2&size=64x64")
    _ = try LoopbackClient.request(port: service.port, "/maps/api/staticmap?size=64x64")
    let metrics = String(decoding: try LoopbackClient.request(port: service.port, "/metrics").body, as: UTF8.self)
    #expect(metrics.contains("tessera_requests_total{route=\"staticmap\",status=\"200\"} 1"))
    #expect(metrics.contains("tessera_requests_total{route=\"staticmap\",status=\"400\"} 1"))
    #expect(metrics.contains("tessera_renders_total 1"))
    #expect(metrics.contains("tessera_request_seconds_bucket{route=\"staticmap\",le=\"+Inf\"} 2"))
  }

  @Test func aFullQueueAnswers503AtOnceAndEveryRequestIsAnswered() throws {
    // One worker, no queue: of 12 requests sent together, those beyond the one rendering are
    // turned away at once with Retry-After; every request gets 200 or 503.
    let service = try RenderServiceTests.start(workers: 1, queue: 0)
    defer { service.shutdown() }
    let statuses = Mutex<[Int]>([])
    let retryAfter = Mutex<[String?]>([])
    DispatchQueue.concurrentPerform(iterations: 12) { index in
      let target = "/maps/api/staticmap?center=40,-74&zoom=\(15 + Double(index) * 0.1)&size=256x256&tilt=50"
      let response = try? LoopbackClient.request(port: service.port, target)
      statuses.withLock { $0.append(response?.status ?? -1) }
      if response?.status == 503 { retryAfter.withLock { $0.append(response?.header("Retry-After")) } }
    }
    let seen = statuses.withLock { $0 }
    #expect(seen.count == 12 && seen.allSatisfy { $0 == 200 || $0 == 503 }, "\(seen)")
    #expect(seen.contains(200) && seen.contains(503), "\(seen)")
    #expect(retryAfter.withLock { $0 }.allSatisfy { $0 == "1" })
  }

  @Test func shutdownAnswersEveryAcceptedRequest() throws {
    let service = try RenderServiceTests.start(workers: 1, queue: 8)
    let statuses = Mutex<[Int]>([])
    let group = DispatchGroup()
    // Client threads of their own (the global dispatch queue runs only as many blocks as cores).
    for index in 0..<4 {
      group.enter()
      Thread.detachNewThread {
        let target = "/maps/api/staticmap?center=40,-74&zoom=\(16 + Double(index) * 0.2)&size=640x640&tilt=60"
        // -2: the connection was refused (it came after the shutdown began; nothing was accepted).
        let status: Int
        do {
          status = try LoopbackClient.request(port: service.port, target).status
        } catch let failure as LoopbackClient.Failure {
          status = failure.refused ? -2 : -1
        } catch {
          status = -1
        }
        statuses.withLock { $0.append(status) }
        group.leave()
      }
    }
    // Once the four requests are in, shut down: each accepted one is still answered.
    let end = Date().addingTimeInterval(20)
    while service.rendersInFlight < 3 && Date() < end {
      Thread.sleep(forTimeInterval: 0.002)
    }
    #expect(service.rendersInFlight >= 3)
    #expect(service.shutdown())
    group.wait()
    // No accepted request is lost: those accepted before the shutdown (at least three) get
    // their map; one arriving during it gets 503 or finds the door shut (refused).
    let seen = statuses.withLock { $0 }
    #expect(seen.count == 4 && seen.allSatisfy { $0 == 200 || $0 == 503 || $0 == -2 }, "\(seen)")
    #expect(seen.filter { $0 == 200 }.count >= 3, "\(seen)")
  }

  @Test func tileserverURLsShowTheSameViewInMapLibreZooms() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    // MapLibre zoom 15 is Google zoom 16.
    let tileserver = try LoopbackClient.request(port: service.port, "/styles/normal/static/-74,40,15@30,45/320x240.png")
    let google = try LoopbackClient.request(
      port: service.port, "/maps/api/staticmap?center=40,-74&zoom=16&heading=30&tilt=45&size=320x240&format=png32")
    #expect(tileserver.status == 200 && google.status == 200)
    #expect(tileserver.body == google.body)
    let doubled = try LoopbackClient.request(port: service.port, "/styles/normal/static/-74,40,15/100x80@2x.png")
    let image = try PNGCodec.decode(doubled.body, source: "doubled")
    #expect(image.width == 200 && image.height == 160)
    let auto = try LoopbackClient.request(
      port: service.port, "/styles/normal/static/auto/200x150.png?path=-74.01,39.99%7C-73.99,40.01&marker=-74,40")
    #expect(auto.status == 200, "\(String(decoding: auto.body, as: UTF8.self))")
    let bounds = try LoopbackClient.request(
      port: service.port, "/styles/normal/static/-74.01,39.99,-73.99,40.01/200x150.jpg")
    #expect(bounds.status == 200 && bounds.header("Content-Type") == "image/jpeg")
    let list = String(decoding: try LoopbackClient.request(port: service.port, "/styles.json").body, as: UTF8.self)
    #expect(list.contains("\"id\":\"normal\"") || list.contains("\"id\": \"normal\""), "\(list)")
    #expect(try LoopbackClient.request(port: service.port, "/styles/moon/static/0,0,1/10x10.png").status == 404)
    #expect(try LoopbackClient.request(port: service.port, "/styles/normal/static/0,0,1/10x10.bmp").status == 400)
  }

  @Test func tileserverOptionsMayComeInAPostBody() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    let target = "/styles/normal/static/auto/160x120.png"
    let query = "path=stroke:red%7Cwidth:4%7C-74.01,39.99%7C-73.99,40.01&marker=-74,40&padding=0.2"
    let viaURL = try LoopbackClient.request(port: service.port, target + "?" + query)
    #expect(viaURL.status == 200)
    // The same options as a form and as JSON give the same image.
    let form = try LoopbackClient.request(
      port: service.port, target, method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"],
      body: Array(query.utf8))
    #expect(form.status == 200 && form.body == viaURL.body)
    let json =
      #"{"path": ["stroke:red|width:4|-74.01,39.99|-73.99,40.01"], "marker": "-74,40", "padding": 0.2}"#
    let viaJSON = try LoopbackClient.request(
      port: service.port, target, method: "POST", headers: ["Content-Type": "application/json"], body: Array(json.utf8))
    #expect(viaJSON.status == 200 && viaJSON.body == viaURL.body)
    // A path too long for a URL (16,384 characters) fits in a body.
    let points = (0..<2000).map { index in
      String(format: "%.5f,%.5f", -74.01 + Double(index) * 0.00001, 39.99 + Double(index % 7) * 0.0001)
    }
    let longPath = "path=" + points.joined(separator: "%7C")
    #expect(longPath.count > 16_384)
    #expect(try LoopbackClient.request(port: service.port, target + "?" + longPath).status == 414)
    let long = try LoopbackClient.request(port: service.port, target, method: "POST", body: Array(longPath.utf8))
    #expect(long.status == 200, "\(String(decoding: long.body.prefix(200), as: UTF8.self))")
    for bad in [#"{"path": [{"x": 1}]}"#, #"{"path": "#, "path=%zz"] {
      let refused = try LoopbackClient.request(port: service.port, target, method: "POST", body: Array(bad.utf8))
      #expect(refused.status == 400, "\(bad): \(refused.status)")
    }
  }

  @Test func renderTakesASceneBodyWithInlineContentOnly() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    let scene =
      ##"{"size": {"width": 64, "height": 48}, "camera": {"latitude": 40, "longitude": -74, "zoom": 15}, "circles": [{"center": [40, -74], "radius": 100, "fillColor": "red"}]}"##
    let rendered = try LoopbackClient.request(port: service.port, "/render", method: "POST", body: Array(scene.utf8))
    #expect(rendered.status == 200 && rendered.header("Content-Type") == "image/png")
    let image = try PNGCodec.decode(rendered.body, source: "render")
    #expect(image.pixel(x: 32, y: 24) == (255, 0, 0, 255))
    let gif = try LoopbackClient.request(
      port: service.port, "/render?format=gif", method: "POST", body: Array(scene.utf8))
    #expect(gif.header("Content-Type") == "image/gif")
    #expect(try ImageCodec.decode(gif.body, source: "render.gif").pixel(x: 32, y: 24) == (255, 0, 0, 255))
    let unknown = try LoopbackClient.request(
      port: service.port, "/render?format=tiff", method: "POST", body: Array(scene.utf8))
    #expect(unknown.status == 400)
    // Anything naming files is refused: styles, data roots, icons, pictures, escapes.
    for body in [
      ##"{"style": "../../etc/passwd"}"##, ##"{"dataRoot": "/"}"##, ##"{"tiles": "mbtiles:///etc/shadow"}"##,
      ##"{"markers": [{"position": [0, 0], "icon": "/etc/passwd"}]}"##,
      ##"{"groundOverlays": [{"image": "%2e%2e/%2e%2e/secret.png", "bounds": [0, 0, 1, 1]}]}"##,
      ##"{"mapStyle": "/etc/hostname"}"##, ##"{"heatmaps": [{"geojson": "../x.geojson"}]}"##,
      ##"{"polylines": [{"path": [[0, 0], [1, 1]], "spans": [{"stamp": "/etc/passwd"}]}]}"##, "not json",
    ] {
      let refused = try LoopbackClient.request(port: service.port, "/render", method: "POST", body: Array(body.utf8))
      #expect(refused.status == 400, "\(body): \(refused.status)")
    }
    #expect(try LoopbackClient.request(port: service.port, "/render").status == 405)
    let huge = try LoopbackClient.request(
      port: service.port, "/render", method: "POST", body: Array(repeating: 0x20, count: (1 << 20) + 10))
    #expect(huge.status == 413)
  }

  @Test func pathsCannotEscapeTheStyles() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    for target in [
      "/styles/..%2F..%2Fetc/style.json", "/styles/../../etc/passwd", "/styles/%2e%2e/style.json",
      "/styles/%2Fetc%2Fpasswd/style.json", "/styles/normal/../../../etc/passwd",
    ] {
      let response = try LoopbackClient.request(port: service.port, target)
      let text = String(decoding: response.body, as: UTF8.self)
      #expect(response.status == 404 && !text.contains("root:"), "\(target): \(response.status) \(text)")
    }
  }

  @Test func keysAndURLSignaturesAreChecked() throws {
    // RFC 2202's first HMAC-SHA1 case: key 0x0b × 20, "Hi There".
    let key = Data(repeating: 0x0b, count: 20).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    let expected = Data([
      0xb6, 0x17, 0x31, 0x86, 0x55, 0x05, 0x72, 0x64, 0xe2, 0x8b, 0xc0, 0xb6, 0xfb, 0x37, 0x8c, 0x8e, 0xf1, 0x46, 0xbe,
      0x00,
    ]).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    #expect(URLSigningProbe.signature(of: "Hi There", secret: key) == expected)
    let secret = "vNIXE0xscrmjlyV-12Nj_BvUPaw="
    let service = try RenderServiceTests.start {
      $0.keys = ["good-key"]
      $0.signingSecret = secret
    }
    defer { service.shutdown() }
    let unsigned = "/maps/api/staticmap?center=40,-74&zoom=15&size=64x64&key=good-key"
    let signature = try #require(URLSigningProbe.signature(of: unsigned, secret: secret))
    #expect(try LoopbackClient.request(port: service.port, unsigned + "&signature=" + signature).status == 200)
    for target in [
      unsigned, unsigned + "&signature=AAAA", "/maps/api/staticmap?center=40,-74&zoom=15&size=64x64&key=bad-key",
      unsigned.replacingOccurrences(of: "zoom=15", with: "zoom=16") + "&signature=" + signature,
    ] {
      let response = try LoopbackClient.request(port: service.port, target)
      #expect(response.status == 403, "\(target): \(response.status)")
    }
  }

  @Test func aSlowSourceGets504AndTheWorkerIsHealthyAfter() throws {
    let silent = try SilentServer()
    defer { silent.close() }
    let service = try RenderServiceTests.start(workers: 1, deadline: 1.5) {
      $0.tiles = "http://127.0.0.1:\(silent.port)/{z}/{x}/{y}.pbf"
    }
    defer { service.shutdown() }
    let start = Date()
    let slow = try LoopbackClient.request(port: service.port, "/maps/api/staticmap?center=40,-74&zoom=15&size=64x64")
    let waited = Date().timeIntervalSince(start)
    #expect(slow.status == 504, "\(slow.status) \(String(decoding: slow.body, as: UTF8.self))")
    #expect(waited < 5, "answered after \(waited) s")
    // The same (only) worker then renders a map that needs no tiles.
    let scene =
      ##"{"size": {"width": 32, "height": 32}, "mapType": "none", "background": "#00ff00", "camera": {"latitude": 0, "longitude": 0, "zoom": 3}}"##
    let after = try LoopbackClient.request(port: service.port, "/render", method: "POST", body: Array(scene.utf8))
    #expect(after.status == 200)
    #expect(try PNGCodec.decode(after.body, source: "after").pixel(x: 16, y: 16) == (0, 255, 0, 255))
  }

  @Test func hostsCORSAndForwardedHeaders() throws {
    let service = try RenderServiceTests.start {
      $0.allowedHosts = ["maps.example.org", "127.0.0.1"]
      $0.corsOrigin = "*"
      $0.trustsForwardedHeaders = true
    }
    defer { service.shutdown() }
    // The test client sends Host: 127.0.0.1:PORT (allowed by name); another host is refused.
    let ok = try LoopbackClient.request(port: service.port, "/health")
    #expect(ok.status == 200 && ok.header("Access-Control-Allow-Origin") == "*")
    let poisoned = try LoopbackClient.request(
      port: service.port, "/styles.json", headers: ["X-Forwarded-Host": "evil.example"])
    #expect(poisoned.status == 421)
    let forwarded = try LoopbackClient.request(
      port: service.port, "/styles.json",
      headers: ["X-Forwarded-Host": "maps.example.org", "X-Forwarded-Proto": "https"])
    #expect(forwarded.status == 200)
    #expect(
      String(decoding: forwarded.body, as: UTF8.self).contains("https://maps.example.org/styles/normal/style.json"))
    let preflight = try LoopbackClient.request(port: service.port, "/maps/api/staticmap", method: "OPTIONS")
    #expect(preflight.status == 204 && preflight.header("Access-Control-Allow-Methods") == "GET, HEAD, POST")
  }

  @Test func markerSizesAndLabelsAreDrawn() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    func image(_ markers: String) throws -> (RGBAImage, String?) {
      let response = try LoopbackClient.request(
        port: service.port, "/maps/api/staticmap?center=0,0&zoom=5&size=80x80&maptype=roadmap&markers=" + markers)
      #expect(response.status == 200)
      return (try PNGCodec.decode(response.body, source: markers), response.header("X-Staticmap-API-Warning"))
    }
    let (plain, plainWarning) = try image("color:blue%7C0,0")
    let (labelled, labelWarning) = try image("color:blue%7Clabel:A%7C0,0")
    let (tiny, _) = try image("size:tiny%7Ccolor:blue%7C0,0")
    #expect(plainWarning == nil && labelWarning == nil)
    // The pin's head (about 30 points above its tip at the centre) holds the label instead of
    // the dot.
    var differing = 0
    for y in 0..<40 {
      for x in 25..<55 where labelled.pixel(x: x, y: y) != plain.pixel(x: x, y: y) { differing += 1 }
    }
    #expect(differing > 20)
    // A tiny pin covers far fewer pixels than a normal one.
    func bluePixels(_ image: RGBAImage) -> Int {
      var count = 0
      for y in 0..<image.height {
        for x in 0..<image.width {
          let p = image.pixel(x: x, y: y)
          if p.b > 150 && p.r < 80 && p.g < 80 { count += 1 }
        }
      }
      return count
    }
    #expect(bluePixels(tiny) * 3 < bluePixels(plain))
    // One emoji is a label too, drawn in its own colours (the pizza's yellow crust and red
    // toppings in the blue head); two characters are not.
    let (pizza, pizzaWarning) = try image("color:blue%7Clabel:%F0%9F%8D%95%7C0,0")
    #expect(pizzaWarning == nil)
    var warm = 0
    for y in 0..<40 {
      for x in 25..<55 {
        let p = pizza.pixel(x: x, y: y)
        if p.r > 150 && p.b < 120 { warm += 1 }
      }
    }
    #expect(warm > 10, "warm pixels of the emoji in the pin's head")
    let refused = try LoopbackClient.request(
      port: service.port, "/maps/api/staticmap?center=0,0&zoom=5&size=80x80&markers=label:AB%7C0,0")
    #expect(refused.status == 400)
    #expect(String(decoding: refused.body, as: UTF8.self).contains("one emoji"))
  }

  @Test func customIconsComeOnlyFromTheIconFolderOrHosts() throws {
    let folder = NSTemporaryDirectory() + "tessera-icons-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder + "/icons", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Data(try PNGCodec.encode(RGBAImage(width: 12, height: 12, fill: Color(r: 0, g: 200, b: 0)))).write(
      to: URL(fileURLWithPath: folder + "/icons/square.png"))
    try Data("secret".utf8).write(to: URL(fileURLWithPath: folder + "/secret.png"))
    let service = try RenderServiceTests.start { $0.iconFolder = folder + "/icons" }
    defer { service.shutdown() }
    let base = "/maps/api/staticmap?center=0,0&zoom=5&size=64x64&maptype=roadmap&markers="
    let drawn = try LoopbackClient.request(port: service.port, base + "icon:square.png%7Canchor:center%7C0,0")
    #expect(drawn.status == 200 && drawn.header("X-Staticmap-API-Warning") == nil)
    #expect(try PNGCodec.decode(drawn.body, source: "icon").pixel(x: 32, y: 32) == (0, 200, 0, 255))
    for icon in ["../secret.png", "%2e%2e/secret.png", "/etc/passwd", "http://169.254.169.254/latest/meta-data"] {
      let refused = try LoopbackClient.request(port: service.port, base + "icon:\(icon)%7C0,0")
      #expect(refused.status == 200, "\(icon)")
      #expect((refused.header("X-Staticmap-API-Warning") ?? "").contains("default pin"), "\(icon)")
    }
    let many = (0..<6).map { "markers=icon:i\($0).png%7C0,0" }.joined(separator: "&")
    let tooMany = try LoopbackClient.request(
      port: service.port, "/maps/api/staticmap?center=0,0&zoom=5&size=64x64&" + many)
    #expect(tooMany.status == 400)
  }

  @Test func aReloadAppliesToTheNextRequests() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    let target = "/maps/api/staticmap?center=0,0&zoom=3&size=32x32"
    #expect(try LoopbackClient.request(port: service.port, target).status == 200)
    var stricter = service.configuration
    stricter.keys = ["k1"]
    service.reload(stricter)
    #expect(try LoopbackClient.request(port: service.port, target).status == 403)
    #expect(try LoopbackClient.request(port: service.port, target + "&key=k1").status == 200)
    // The metrics carried over the reload.
    let metrics = String(decoding: try LoopbackClient.request(port: service.port, "/metrics").body, as: UTF8.self)
    #expect(metrics.contains("tessera_requests_total{route=\"staticmap\",status=\"200\"} 2"))
  }

  @Test func metricsCanHaveTheirOwnLoopbackListener() throws {
    let service = try RenderServiceTests.start { $0.metricsHost = "127.0.0.1" }
    defer { service.shutdown() }
    let metricsPort = try #require(service.metricsPort)
    #expect(try LoopbackClient.request(port: metricsPort, "/metrics").status == 200)
    #expect(try LoopbackClient.request(port: metricsPort, "/health").status == 404)
    #expect(try LoopbackClient.request(port: service.port, "/metrics").status == 404)
    #expect(try LoopbackClient.request(port: service.port, "/health").status == 200)
  }

  @Test func googlesDocumentedExampleURLsRender() throws {
    // The Static Maps documentation's examples (markers, a path, styles), with the geocoded
    // address of the first replaced by its coordinates, as there is no geocoder here.
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    let examples = [
      "/maps/api/staticmap?center=40.714728,-73.998672&zoom=13&size=600x300&maptype=roadmap"
        + "&markers=color:blue%7Clabel:S%7C40.702147,-74.015794&markers=color:green%7Clabel:G%7C40.711614,-74.012318"
        + "&markers=color:red%7Clabel:C%7C40.718217,-73.998284",
      "/maps/api/staticmap?size=400x400&center=40.737102,-73.990318&zoom=15"
        + "&path=color:0x0000ff%7Cweight:5%7C40.737102,-73.990318%7C40.749825,-73.987963%7C40.752946,-73.987384"
        + "%7C40.755823,-73.986397",
      "/maps/api/staticmap?size=400x400&center=40.737102,-73.990318&zoom=15"
        + "&path=color:0x00000000%7Cweight:5%7Cfillcolor:0xFFFF0033%7C40.737102,-73.990318%7C40.749825,-73.987963"
        + "%7C40.752946,-73.987384%7C40.755823,-73.986397",
      "/maps/api/staticmap?size=512x512&zoom=15&center=40.6744,-73.9888"
        + "&style=feature:road.local%7Celement:geometry%7Ccolor:0x00ff00&style=feature:landscape%7Celement:geometry.fill"
        + "%7Ccolor:0x000000&style=element:labels%7Cinvert_lightness:true"
        + "&style=feature:road.arterial%7Celement:labels%7Cinvert_lightness:false",
      "/maps/api/staticmap?size=512x512&path=weight:3%7Ccolor:orange%7Cenc:_p~iF~ps%7CU_ulLnnqC_mqNvxq%60@",
    ]
    for target in examples {
      let response = try LoopbackClient.request(port: service.port, target)
      let text = response.status == 200 ? "" : String(decoding: response.body, as: UTF8.self)
      #expect(response.status == 200, "\(target.prefix(100)): \(response.status) \(text)")
      #expect(response.header("X-Staticmap-API-Warning") == nil, "\(target.prefix(100))")
    }
  }

  @Test func clientsThatGiveUpDoNotHurtTheServer() throws {
    // Twenty clients send a render request and hang up before the answer; the renders finish
    // after the connections are gone, and the server keeps answering.
    let service = try RenderServiceTests.start(workers: 1, queue: 32)
    defer { service.shutdown() }
    for index in 0..<20 {
      LoopbackClient.abandon(
        port: service.port, "/maps/api/staticmap?center=40,-74&zoom=\(14 + Double(index) * 0.1)&size=256x256&tilt=45")
    }
    let end = Date().addingTimeInterval(60)
    while service.rendersInFlight > 0 && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
    #expect(service.rendersInFlight == 0)
    #expect(
      try LoopbackClient.request(port: service.port, "/maps/api/staticmap?center=0,0&zoom=2&size=32x32").status == 200)
  }

  @Test func missingGlyphsAreReportedNotSilent() throws {
    // A style whose glyph PBFs do not exist: the label falls back (or is left out) and the
    // answer says so, in a header and in the metrics.
    let folder = NSTemporaryDirectory() + "tessera-glyphs-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let style = ##"""
      {"version": 8, "glyphs": "missing/{fontstack}/{range}.pbf",
       "sources": {"points": {"type": "geojson", "data": {"type": "Feature", "properties": {"name": "Hello"},
         "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
       "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "#ffffff"}},
         {"id": "names", "type": "symbol", "source": "points", "layout": {"text-field": ["get", "name"], "text-font": ["Nowhere Sans"]}}]}
      """##
    try Data(style.utf8).write(to: URL(fileURLWithPath: folder + "/labels.json"))
    let service = try RenderServiceTests.start {
      $0.styles["labels"] = .file(path: folder + "/labels.json", dataRoot: folder)
    }
    defer { service.shutdown() }
    let response = try LoopbackClient.request(port: service.port, "/styles/labels/static/0,0,3/128x128.png")
    #expect(response.status == 200)
    let warning = response.header("X-Staticmap-API-Warning") ?? ""
    #expect(!warning.isEmpty, "no warning for missing glyphs")
    let metrics = String(decoding: try LoopbackClient.request(port: service.port, "/metrics").body, as: UTF8.self)
    #expect(metrics.contains("tessera_render_warnings_total{kind=\"glyphs\"}"), "\(warning)")
  }
}
