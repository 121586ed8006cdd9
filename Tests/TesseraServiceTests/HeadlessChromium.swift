import Foundation
import TesseraImage

/// Debian's `chromium` in headless mode, loading a page from a service on loopback: what the
/// page wrote to its console (errors, failed loads, uncaught exceptions: the pages write
/// nothing else), its DOM once loaded, and a screenshot.
struct HeadlessChromium {
  static let executable = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  static let skipReason = "skipped browser test: Debian's chromium is not installed (make test installs it)"

  /// What one load of a page gave.
  struct Load {
    /// The page's console messages, one line each.
    var console: [String]
    /// The DOM after the page settled (`--dump-dom`); empty for screenshot loads.
    var dom: String
    /// The screenshot, when one was asked for.
    var screenshot: RGBAImage?
  }

  /// Loads `url` in a fresh profile with `budget` milliseconds of virtual time (which waits
  /// for the page's fetches), then dumps its DOM or takes a `width`×`height` screenshot
  /// (kept at `keep` when given). Chromium is stopped after `timeout` seconds.
  static func load(
    _ url: String, screenshot: Bool, width: Int = 1200, height: Int = 800, budget: Int = 20_000,
    keep: String? = nil, timeout: Double = 120
  ) throws -> Load {
    guard let executable else { throw BrowserError(reason: skipReason) }
    let folder = NSTemporaryDirectory() + "tessera-chromium-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let shot = folder + "/screenshot.png"
    var arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
      "--disable-background-networking", "--disable-sync", "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
      "--user-data-dir=\(folder)/profile", "--virtual-time-budget=\(budget)", "--window-size=\(width),\(height)",
    ]
    arguments.append(screenshot ? "--screenshot=\(shot)" : "--dump-dom")
    arguments.append(url)
    for file in ["out", "err"] {
      guard FileManager.default.createFile(atPath: folder + "/" + file, contents: nil) else {
        throw BrowserError(reason: "cannot write \(folder)/\(file)")
      }
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(["HOME": folder]) { $1 }
    process.standardOutput = FileHandle(forWritingAtPath: folder + "/out")
    process.standardError = FileHandle(forWritingAtPath: folder + "/err")
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      throw BrowserError(reason: "chromium did not finish \(url) in \(timeout) s")
    }
    let errors = String(decoding: FileManager.default.contents(atPath: folder + "/err") ?? Data(), as: UTF8.self)
    let console = errors.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
    let dom = String(decoding: FileManager.default.contents(atPath: folder + "/out") ?? Data(), as: UTF8.self)
    var image: RGBAImage?
    if screenshot {
      guard let bytes = FileManager.default.contents(atPath: shot) else {
        throw BrowserError(reason: "chromium wrote no screenshot of \(url): \(errors.suffix(2000))")
      }
      if let keep { try? bytes.write(to: URL(fileURLWithPath: keep)) }
      image = try PNGCodec.decode(Array(bytes), source: "screenshot of \(url)")
    }
    return Load(console: console, dom: dom, screenshot: image)
  }

  struct BrowserError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
  }
}

extension RGBAImage {
  /// The pixels of the rectangle x ≥ `left`, y ≥ `top`, narrower than `width` and shorter
  /// than `height` (clipped to the image), as RGB triples packed in an `Int` each.
  func colours(left: Int, top: Int, width: Int, height: Int) -> [Int] {
    var colours: [Int] = []
    for y in max(top, 0)..<min(top + height, self.height) {
      for x in max(left, 0)..<min(left + width, self.width) {
        let index = (y * self.width + x) * 4
        colours.append(Int(pixels[index]) << 16 | Int(pixels[index + 1]) << 8 | Int(pixels[index + 2]))
      }
    }
    return colours
  }
}
