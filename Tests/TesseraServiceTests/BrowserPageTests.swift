import Foundation
import TesseraImage
import TesseraService
import TesseraTestSupport
import Testing

/// The web pages loaded by headless Chromium from a service on 127.0.0.1 started from a
/// tileserver-gl config over the shared Monaco data: no console errors, every link and image
/// of the index answering, screenshots analysed (map tiles drawn, the playground's image
/// following the tilt). `TESSERA_SCREENSHOTS=FOLDER` keeps the screenshots.
@Suite(.serialized) struct BrowserPageTests {
  static let isRunnable = SharedData.isAvailable && HeadlessChromium.executable != nil
  static let skipReason = SharedData.isAvailable ? HeadlessChromium.skipReason : SharedData.skipReason

  /// The service of the tileserver-gl folder, its map types drawing the Monaco tiles.
  static func start() throws -> (RenderService, String) {
    let folder = try TileserverGLServiceTests.makeFolder()
    let service = try RenderServiceTests.start { configuration in
      do {
        configuration = try ServiceConfiguration(file: folder + "/config.json")
      } catch {
        Issue.record("the config was refused: \(error)")
      }
      configuration.port = 0
      configuration.tiles = SharedData.path("data/vector/monaco-openmaptiles.pmtiles")
      configuration.logSink = { _ in }
    }
    return (service, folder)
  }

  static func keep(_ name: String) -> String? {
    guard let folder = ProcessInfo.processInfo.environment["TESSERA_SCREENSHOTS"] else { return nil }
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder + "/" + name + ".png"
  }

  /// The values of `attribute` in `html` that are paths on this server.
  static func localLinks(_ html: String, attribute: String) -> [String] {
    html.components(separatedBy: "\(attribute)=\"").dropFirst().compactMap { rest in
      guard let end = rest.firstIndex(of: "\"") else { return nil }
      let link = String(rest[..<end]).replacingOccurrences(of: "&amp;", with: "&")
      return link.hasPrefix("/") ? link : nil
    }
  }

  @Test(.enabled(if: isRunnable, Comment(rawValue: skipReason)))
  func theIndexListsStylesAndDataAndEveryLinkAnswers() throws {
    let (service, folder) = try Self.start()
    defer {
      service.shutdown()
      try? FileManager.default.removeItem(atPath: folder)
    }
    let base = "http://127.0.0.1:\(service.port)"
    let loaded = try HeadlessChromium.load(base + "/", screenshot: false)
    #expect(loaded.console.isEmpty, "\(loaded.console)")
    for link in ["/styles/liberty/", "/data/openmaptiles/", "/data/terrain/", "/playground/", "/styles/normal/"] {
      #expect(loaded.dom.contains("href=\"\(link)\""), "\(link)")
    }
    // Map types without imagery or a DEM cannot be drawn and are not listed.
    #expect(!loaded.dom.contains("/styles/satellite/"))
    let links = Set(Self.localLinks(loaded.dom, attribute: "href") + Self.localLinks(loaded.dom, attribute: "src"))
    #expect(links.count >= 15, "\(links.sorted())")
    for link in links.sorted() {
      let answer = try LoopbackClient.request(port: service.port, link, timeout: 60)
      #expect(answer.status == 200, "\(link): \(String(decoding: answer.body.prefix(200), as: UTF8.self))")
    }
    let shot = try HeadlessChromium.load(base + "/", screenshot: true, keep: Self.keep("index"))
    #expect(shot.console.isEmpty, "\(shot.console)")
    // The first card's thumbnail (the liberty style) is a map, not a placeholder.
    let thumbnail = try #require(shot.screenshot).colours(left: 30, top: 135, width: 350, height: 210)
    #expect(Set(thumbnail).count > 500, "\(Set(thumbnail).count) colours")
  }

  @Test(.enabled(if: isRunnable, Comment(rawValue: skipReason)))
  func theViewerShowsTilesAndTheTiltedView() throws {
    let (service, folder) = try Self.start()
    defer {
      service.shutdown()
      try? FileManager.default.removeItem(atPath: folder)
    }
    let url = "http://127.0.0.1:\(service.port)/styles/liberty/"
    let shot = try HeadlessChromium.load(url, screenshot: true, keep: Self.keep("viewer"))
    #expect(shot.console.isEmpty, "\(shot.console)")
    let image = try #require(shot.screenshot)
    // The map (left of the 360-point panel, below the header): tiles everywhere, not Leaflet's
    // grey background or a broken-image icon.
    let map = image.colours(left: 0, top: 60, width: 830, height: 720)
    let background = map.filter { $0 == 0xdddddd }.count
    #expect(Double(background) < 0.05 * Double(map.count), "\(background) of \(map.count) pixels are background")
    #expect(Set(map).count > 1000, "\(Set(map).count) colours")
    let dom = try HeadlessChromium.load(url, screenshot: false).dom
    let tilted = try #require(Self.localLinks(dom, attribute: "src").first { $0.contains("/static/") })
    #expect(tilted.hasPrefix("/styles/liberty/static/7.4246,43.7384,16@-20,50/"), "\(tilted)")
    // The camera panel's picture: the tilted view.
    let panel = image.colours(left: 858, top: 300, width: 318, height: 236)
    #expect(Set(panel).count > 500, "\(Set(panel).count) colours")
  }

  @Test(.enabled(if: isRunnable, Comment(rawValue: skipReason)))
  func theInspectorDrawsVectorTilesAndElevation() throws {
    let (service, folder) = try Self.start()
    defer {
      service.shutdown()
      try? FileManager.default.removeItem(atPath: folder)
    }
    let base = "http://127.0.0.1:\(service.port)"
    for (path, name) in [("/data/openmaptiles/", "inspector-vector"), ("/data/terrain/", "inspector-dem")] {
      let shot = try HeadlessChromium.load(base + path, screenshot: true, keep: Self.keep(name))
      #expect(shot.console.isEmpty, "\(path): \(shot.console)")
      let map = try #require(shot.screenshot).colours(left: 0, top: 60, width: 830, height: 720)
      let drawn = map.filter { $0 != 0xdddddd }.count
      #expect(Double(drawn) > 0.1 * Double(map.count), "\(path): \(drawn) of \(map.count) pixels drawn")
      #expect(Set(map).count > 50, "\(path): \(Set(map).count) colours")
    }
  }

  @Test(.enabled(if: isRunnable, Comment(rawValue: skipReason)))
  func thePlaygroundImageFollowsTheTilt() throws {
    let (service, folder) = try Self.start()
    defer {
      service.shutdown()
      try? FileManager.default.removeItem(atPath: folder)
    }
    let page = "http://127.0.0.1:\(service.port)/playground/?center=43.7384,7.4246&size=480x320"
    var shots: [RGBAImage] = []
    for tilt in [0, 60] {
      let loaded = try HeadlessChromium.load(
        page + "&zoom=17&tilt=\(tilt)&markers=color:red%7C43.7384,7.4246", screenshot: true,
        keep: Self.keep("playground-\(tilt)"))
      #expect(loaded.console.isEmpty, "\(loaded.console)")
      shots.append(try #require(loaded.screenshot))
    }
    // The image (right of the form) changes with the tilt.
    let flat = shots[0].colours(left: 380, top: 140, width: 480, height: 320)
    let tilted = shots[1].colours(left: 380, top: 140, width: 480, height: 320)
    #expect(Set(flat).count > 200 && Set(tilted).count > 200, "\(Set(flat).count), \(Set(tilted).count) colours")
    let changed = zip(flat, tilted).filter { $0 != $1 }.count
    #expect(Double(changed) > 0.3 * Double(flat.count), "\(changed) of \(flat.count) pixels changed")
    // The URL is written out, and a refused request shows the server's reason.
    let dom = try HeadlessChromium.load(page + "&zoom=17&tilt=60", screenshot: false).dom
    #expect(dom.contains("tilt=60"), "\(dom)")
    let refused = try HeadlessChromium.load(page + "&zoom=99", screenshot: false).dom
    #expect(refused.contains("id=\"error\" class=\"notice\">400: "), "\(refused)")
  }
}
