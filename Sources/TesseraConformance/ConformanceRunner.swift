import Foundation
import Tessera
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraStyle

/// Renders MapLibre render tests and compares them as MapLibre Native's runner does: both
/// images premultiplied, pixelmatch at threshold 0.1285 with anti-aliased pixels excused, a
/// case passing when the mismatched fraction is at most its `allowed`.
public struct ConformanceRunner {
  /// What one case gave.
  public struct Outcome: Sendable {
    public let id: String
    public let category: String
    public let passed: Bool
    /// The smallest mismatched fraction over the expected images (1 when none compared).
    public let difference: Double
    public let allowed: Double
    /// Why the case could not be rendered or compared, if it could not.
    public let error: String?
    public let upstreamIgnored: String?
    /// Render time, milliseconds.
    public let milliseconds: Double
    /// Tiles that failed to load while rendering.
    public let warnings: [String]
  }

  public let suite: ConformanceSuite
  /// Where `actual.png` and `diff.png` of failing cases go (`<output>/<category>/<case>/`).
  public let outputDirectory: String?
  public let device: GLDevice

  public init(suite: ConformanceSuite, outputDirectory: String?, device: GLDevice) {
    self.suite = suite
    self.outputDirectory = outputDirectory
    self.device = device
  }

  /// The camera of a case: its style zoom as a camera zoom, pitch kept (the tilt cap is raised
  /// as needed).
  static func options(for test: ConformanceCase) throws -> MapOptions {
    var limits = CameraLimits()
    try limits.setRaisedTiltCap(min(max(test.pitch, 60), CameraLimits.absoluteMaxTilt))
    let camera = try Camera(
      target: test.center, zoom: min(max(Camera.zoom(forStyleZoom: test.zoom), 0), CameraLimits.maximumZoomLevel),
      bearing: test.bearing,
      viewingAngle: test.pitch, limits: limits)
    var options = MapOptions(
      width: test.width, height: test.height, scale: test.pixelRatio, camera: camera, limits: limits,
      backgroundColor: Color(red: 0, green: 0, blue: 0, alpha: 0), mapType: .none)
    // MapLibre's runner renders a style whose source cannot be used, without that source.
    options.skipsUnusableSources = true
    return options
  }

  /// Renders one case (premultiplied pixels, as MapLibre reads them back).
  public func render(_ test: ConformanceCase) throws -> Snapshot {
    if let problem = test.problem { throw ConformanceError(path: test.directory, reason: problem) }
    let map = try Map(options: ConformanceRunner.options(for: test), device: device)
    let style = try Style.parse(test.style, source: test.directory + "/style.json")
    try map.setStyle(style, name: test.id, dataRoot: test.directory, localRoot: suite.root)
    return try map.snapshot(alpha: .premultiplied)
  }

  /// Renders and compares one case.
  public func run(_ test: ConformanceCase) -> Outcome {
    let start = DispatchTime.now()
    var warnings: [String] = []
    func outcome(passed: Bool, difference: Double, error: String?) -> Outcome {
      Outcome(
        id: test.id, category: test.category, passed: passed, difference: difference, allowed: test.allowed,
        error: error, upstreamIgnored: test.upstreamIgnored,
        milliseconds: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6,
        warnings: warnings)
    }
    let image: RGBAImage
    do {
      let snapshot = try render(test)
      image = snapshot.image
      warnings = snapshot.warnings
    } catch {
      return outcome(passed: false, difference: 1, error: "\(error)")
    }
    var best: (fraction: Double, diff: RGBAImage?) = (1, nil)
    var problems: [String] = []
    for path in test.expectedImages {
      do {
        guard let data = FileManager.default.contents(atPath: path) else {
          problems.append("\(path): cannot read")
          continue
        }
        let expected = try PNGCodec.decode(Array(data), source: path)
        let result = try PixelDiff(threshold: 0.1285, blending: .premultiplied).compare(image, expected)
        if result.differentFraction < best.fraction || best.diff == nil {
          best = (result.differentFraction, result.diffImage)
        }
      } catch {
        problems.append("\(error)")
      }
    }
    let passed = best.diff != nil && best.fraction <= test.allowed
    if !passed, let outputDirectory {
      let folder = "\(outputDirectory)/\(test.id)"
      try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      if let bytes = try? PNGCodec.encode(image.straightAlpha(), settings: .small) {
        FileManager.default.createFile(atPath: folder + "/actual.png", contents: Data(bytes))
      }
      if let diff = best.diff, let bytes = try? PNGCodec.encode(diff, settings: .small) {
        FileManager.default.createFile(atPath: folder + "/diff.png", contents: Data(bytes))
      }
    }
    return outcome(
      passed: passed, difference: best.fraction,
      error: best.diff == nil ? (problems.isEmpty ? "no expected image" : problems.joined(separator: "; ")) : nil)
  }
}
