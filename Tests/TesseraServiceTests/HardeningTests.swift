import Dispatch
import Foundation
import Synchronization
import Tessera
import TesseraData
import TesseraImage
import TesseraService
import TesseraTestSupport
import Testing

/// What a request may make the service do, tried as an attacker would over real HTTP on
/// 127.0.0.1: read no file and reach no host beyond what the configuration allows, take a
/// bounded amount of memory and time, and leave the service answering its probes.
@Suite(.serialized) struct HardeningTests {
  static func png(_ color: Color, size: Int = 12) throws -> [UInt8] {
    try PNGCodec.encode(RGBAImage(width: size, height: size, fill: color))
  }

  static func body(_ json: String) -> [UInt8] { Array(json.utf8) }

  /// Every field of a POST /render scene that names a file, a folder, a source or a URL is
  /// refused with 400 naming the field, at the top level and inside the `tessera` object (which
  /// once was merged after the check), and nothing it names is fetched.
  @Test func sceneBodiesReachNoFileAndNoHost() throws {
    let host = try OutboundHost { _ in HTTPResponse(status: 200, body: Array("{}".utf8)) }
    defer { host.stop() }
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    let camera = #""camera": {"latitude": 0, "longitude": 0, "zoom": 3}, "size": {"width": 32, "height": 32}"#
    let named: [(String, String)] = [
      ("style", #""style": "/etc/passwd""#), ("dataRoot", #""dataRoot": "/""#), ("mapIDs", #""mapIDs": "/etc""#),
      ("mapStyle", #""mapStyle": "/etc/hostname""#), ("tiles", "\"tiles\": \"\(host.url("/{z}/{x}/{y}.pbf"))\""),
      ("imagery", "\"imagery\": \"\(host.url("/latest/meta-data"))\""), ("dem", #""dem": "/srv""#),
      ("traffic", "\"traffic\": {\"tiles\": \"\(host.url("/t/{z}/{x}/{y}.pbf"))\"}"),
      ("icon", #""markers": [{"position": [0, 0], "icon": "/etc/passwd"}]"#),
      ("infoWindow", #""markers": [{"position": [0, 0], "infoWindow": "../x.png", "selected": true}]"#),
      ("geojson", #""markers": [{"geojson": "/etc/passwd"}]"#),
      ("stamp", #""polylines": [{"path": [[0, 0], [1, 1]], "spans": [{"stamp": "/etc/passwd"}]}]"#),
      ("image", #""groundOverlays": [{"image": "/etc/passwd", "bounds": [0, 0, 1, 1]}]"#),
      ("source", "\"tileOverlays\": [{\"source\": \"\(host.url("/o/{z}/{x}/{y}.png"))\"}]"),
      ("geojson", #""heatmaps": [{"geojson": "../points.geojson"}]"#),
      ("geojson", #""geojsonOverlays": [{"geojson": "/etc/passwd"}]"#),
    ]
    for (field, json) in named {
      for wrapped in ["{\(camera), \(json)}", "{\(camera), \"tessera\": {\(json)}}"] {
        let answer = try LoopbackClient.request(port: service.port, "/render", method: "POST", body: Self.body(wrapped))
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(answer.status == 400, "\(wrapped): \(answer.status) \(text)")
        #expect(text.contains(field) && text.contains("inline content"), "\(wrapped): \(text)")
        #expect(!text.contains("root:") && !text.contains(FileManager.default.currentDirectoryPath), "\(text)")
      }
    }
    #expect(host.paths.isEmpty, "the service fetched \(host.paths)")
  }

  /// Icon URLs are compared to the allowed prefixes in their canonical spelling, fetched as
  /// compared, and every redirect is checked again.
  @Test func iconURLsCannotLeaveTheAllowedPrefix() throws {
    let green = try Self.png(Color(r: 0, g: 200, b: 0))
    let red = try Self.png(Color(r: 255, g: 0, b: 0))
    let host = try OutboundHost { path in
      switch path {
      case "/icons/pin.png": return HTTPResponse(status: 200, headers: [("Content-Type", "image/png")], body: green)
      case "/secret": return HTTPResponse(status: 200, headers: [("Content-Type", "image/png")], body: red)
      case "/icons/away": return HTTPResponse(status: 302, headers: [("Location", "/secret")])
      case "/icons/elsewhere": return HTTPResponse(status: 302, headers: [("Location", "http://127.0.0.2:9/x.png")])
      case "/icons/moved": return HTTPResponse(status: 301, headers: [("Location", "pin.png")])
      default: return nil
      }
    }
    defer { host.stop() }
    let service = try RenderServiceTests.start { configuration in
      configuration.iconHosts = [try! OutboundURL("http://127.0.0.1:\(host.port)/icons/")]
      configuration.iconPrivateAddresses = true
    }
    defer { service.shutdown() }
    func draw(_ icon: String) throws -> (status: Int, warning: String?, center: [UInt8]?) {
      let target =
        "/maps/api/staticmap?center=0,0&zoom=5&size=64x64&maptype=roadmap&markers=icon:\(icon)%7Canchor:center%7C0,0"
      let answer = try LoopbackClient.request(port: service.port, target)
      let image = answer.status == 200 ? try PNGCodec.decode(answer.body, source: "icon") : nil
      let center = image.map { image -> [UInt8] in
        let pixel = image.pixel(x: 32, y: 32)
        return [pixel.0, pixel.1, pixel.2, pixel.3]
      }
      return (answer.status, answer.header("X-Staticmap-API-Warning"), center)
    }
    let allowed = try draw(host.url("/icons/pin.png"))
    #expect(allowed.status == 200 && allowed.warning == nil && allowed.center == [0, 200, 0, 255])
    let moved = try draw(host.url("/icons/moved"))
    #expect(moved.warning == nil && moved.center == [0, 200, 0, 255], "\(moved)")
    for escape in [
      "/icons/../secret", "/icons/%2e%2e/secret", "/icons/./%2E%2E/secret", "/icons/..%2fsecret",
      "/icons%2f..%2fsecret",
      "/ICONS/../secret", "/icons/away", "/icons/elsewhere",
    ] {
      let refused = try draw(host.url(escape))
      #expect(refused.status == 200, "\(escape)")
      #expect(refused.center != [255, 0, 0, 255], "\(escape) drew the secret")
      #expect((refused.warning ?? "").contains("default pin"), "\(escape): \(refused.warning ?? "no warning")")
    }
    #expect(!host.paths.contains("/secret"), "the service fetched \(host.paths)")
    #expect(!host.paths.contains { $0.contains("..") }, "\(host.paths)")
  }

  /// Loopback, private and link-local addresses (cloud metadata) are not connected to unless the
  /// configuration allows them, whatever name leads there.
  @Test func iconsAtPrivateAddressesAreRefusedByDefault() throws {
    let host = try OutboundHost { _ in HTTPResponse(status: 200, body: (try? Self.png(.black)) ?? []) }
    defer { host.stop() }
    let service = try RenderServiceTests.start { configuration in
      configuration.iconHosts = [
        try! OutboundURL("http://127.0.0.1:\(host.port)/"), try! OutboundURL("http://localhost:\(host.port)/"),
        try! OutboundURL("http://169.254.169.254/"),
      ]
    }
    defer { service.shutdown() }
    for icon in [host.url("/a.png"), "http://localhost:\(host.port)/a.png", "http://169.254.169.254/latest/x.png"] {
      let answer = try LoopbackClient.request(
        port: service.port, "/maps/api/staticmap?center=0,0&zoom=5&size=32x32&markers=icon:\(icon)%7C0,0")
      #expect(answer.status == 200)
      #expect((answer.header("X-Staticmap-API-Warning") ?? "").contains("not public"), "\(icon)")
    }
    #expect(host.paths.isEmpty, "\(host.paths)")
  }

  /// A slow icon host holds only the requests that name it, up to their deadline: the service
  /// keeps answering its probes and other maps at once.
  @Test func aSlowIconHostStallsNothingElse() throws {
    let host = try OutboundHost(delay: 6) { _ in HTTPResponse(status: 200, body: (try? Self.png(.black)) ?? []) }
    defer { host.stop() }
    let service = try RenderServiceTests.start(workers: 2, queue: 16, deadline: 2) { configuration in
      configuration.iconHosts = [try! OutboundURL("http://127.0.0.1:\(host.port)/")]
      configuration.iconPrivateAddresses = true
    }
    defer { service.shutdown() }
    let slow = Mutex<[Int]>([])
    let group = DispatchGroup()
    for index in 0..<8 {
      DispatchQueue.global().async(group: group) {
        let icon = host.url("/slow\(index).png")
        let status =
          (try? LoopbackClient.request(
            port: service.port, "/maps/api/staticmap?center=0,0&zoom=5&size=32x32&markers=icon:\(icon)%7C0,0",
            timeout: 20))?.status ?? -1
        slow.withLock { $0.append(status) }
      }
    }
    Thread.sleep(forTimeInterval: 0.3)
    var worst = 0.0
    for _ in 0..<5 {
      let start = Date()
      #expect(try LoopbackClient.request(port: service.port, "/health", timeout: 5).status == 200)
      worst = max(worst, Date().timeIntervalSince(start))
      Thread.sleep(forTimeInterval: 0.1)
    }
    let start = Date()
    let plain = try LoopbackClient.request(
      port: service.port, "/maps/api/staticmap?center=0,0&zoom=3&size=32x32", timeout: 10)
    let plainSeconds = Date().timeIntervalSince(start)
    group.wait()
    print("slow icon host: /health took at most \(worst) s, a map without icons \(plainSeconds) s")
    #expect(worst < 0.5)
    #expect(plain.status == 200 && plainSeconds < 5)
    // Each slow request ends at its deadline (2 s), not at the host's 6 s.
    #expect(slow.withLock { $0 }.allSatisfy { $0 == 504 || $0 == 200 }, "\(slow.withLock { $0 })")
  }

  /// A body whose geodesic line becomes millions of points is refused with 413 before it is
  /// drawn, in well under its deadline, and the service's memory does not grow by gigabytes.
  @Test func contentBeyondTheBudgetIs413() throws {
    let service = try RenderServiceTests.start(deadline: 30)
    defer { service.shutdown() }
    var random = SeededRandom(seed: 60_000)
    var points: [String] = []
    for index in 0..<60_000 {
      let latitude = Int(random.next() % 16_000) - 8_000
      points.append("[\(Double(latitude) / 100), \(index % 2 == 0 ? 179.5 : -179.5)]")
    }
    let body =
      #"{"size": {"width": 256, "height": 256}, "camera": {"latitude": 0, "longitude": 180, "zoom": 2}, "#
      + #""mapType": "none", "polylines": [{"geodesic": true, "path": ["# + points.joined(separator: ",") + "]}]}"
    #expect(body.utf8.count > 800_000 && body.utf8.count < 1 << 20)
    let before = ServiceMemory.residentBytes()
    let start = Date()
    let answer = try LoopbackClient.request(port: service.port, "/render", method: "POST", body: Self.body(body))
    let seconds = Date().timeIntervalSince(start)
    let grown = (ServiceMemory.residentBytes() - before) >> 20
    let text = String(decoding: answer.body, as: UTF8.self)
    print("60,000-point geodesic body: \(answer.status) in \(seconds) s, resident size grew \(grown) MB: \(text)")
    #expect(answer.status == 413, "\(text)")
    #expect(text.contains("overlay points") && text.contains("500000"))
    #expect(seconds < 5)
    #expect(grown < 300)
    // Too many overlays and markers are refused the same way.
    let circles = (0..<1_001).map { _ in #"{"center": [0, 0], "radius": 10}"# }.joined(separator: ",")
    let many = try LoopbackClient.request(
      port: service.port, "/render", method: "POST",
      body: Self.body(#"{"camera": {"latitude": 0, "longitude": 0, "zoom": 3}, "circles": ["# + circles + "]}"))
    #expect(many.status == 413 && String(decoding: many.body, as: UTF8.self).contains("overlays"))
  }

  /// Warnings and answers never carry the server's folders, and text from the request cannot
  /// break a header.
  @Test func answersShowNoServerPathsAndNoInjectedHeaders() throws {
    let service = try RenderServiceTests.start()
    defer { service.shutdown() }
    let injected = try LoopbackClient.request(
      port: service.port,
      "/maps/api/staticmap?center=0,0&zoom=5&size=32x32&markers=icon:a%0D%0AX-Injected:%201.png%7C0,0")
    #expect(injected.status == 200)
    #expect(injected.header("X-Injected") == nil)
    #expect((injected.header("X-Staticmap-API-Warning") ?? "").contains("default pin"))
    let cwd = FileManager.default.currentDirectoryPath
    for body in [#"{"mapID": "nope"}"#, #"{"markers": [{"position": [0, 0], "icon": "x.png"}]}"#, "{\"size\": 1}"] {
      let answer = try LoopbackClient.request(port: service.port, "/render", method: "POST", body: Self.body(body))
      let text = String(decoding: answer.body, as: UTF8.self)
      #expect(answer.status == 400, "\(body): \(text)")
      #expect(!text.contains(cwd) && !text.contains(NSTemporaryDirectory()), "\(body): \(text)")
    }
  }
}

/// The test process's resident memory.
enum ServiceMemory {
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .ascii) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * 4096 : 0
  }
}
