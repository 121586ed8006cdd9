import Foundation
import Tessera
import TesseraGL
import TesseraGeo
import TesseraImage
import TesseraNumbers
import TesseraRender
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
    // The expected images credit nothing.
    options.attribution = .off
    return options
  }

  /// Renders one case (premultiplied pixels, as MapLibre reads them back).
  public func render(_ test: ConformanceCase) throws -> Snapshot {
    if let problem = test.problem { throw ConformanceError(path: test.directory, reason: problem) }
    if test.tileMode { return try renderTiles(test) }
    return try render(test, options: ConformanceRunner.options(for: test), tileMode: false)
  }

  /// Renders a case at `options` (in tile mode as one tile: labels collide 1,024 points past
  /// its edges, as MapLibre's tile mode places them).
  func render(_ test: ConformanceCase, options: MapOptions, tileMode: Bool) throws -> Snapshot {
    let map = try Map(options: options, device: device)
    if tileMode { map.tileCuts = TileCuts(vertical: [], horizontal: [], collisionMargin: 1024, tilePlacement: true) }
    map.showsCollisionCircles = test.collisionDebug
    let style = try Style.parse(test.style, source: test.directory + "/style.json")
    try map.setStyle(style, name: test.id, dataRoot: test.directory, localRoot: suite.root)
    try ConformanceRunner.apply(test.operations, to: map, path: test.directory)
    return try map.snapshot(alpha: .premultiplied)
  }

  /// Applies a case's `operations` that change what is drawn: `setZoom` (MapLibre zoom),
  /// `setBearing` (degrees),
  /// `setFeatureState` and `removeFeatureState` (waits need nothing: every snapshot waits for
  /// its tiles, and still frames show finished fades). Other operations are not applied.
  public static func apply(_ operations: [JSONValue], to map: Map, path: String) throws {
    for (index, operation) in operations.enumerated() {
      guard case .array(let parts) = operation, case .string(let name)? = parts.first else {
        throw ConformanceError(path: path, reason: "operations[\(index)]: expected [name, …]")
      }
      func feature(_ value: JSONValue?) throws -> (source: String, sourceLayer: String?, id: String) {
        guard case .object(let object)? = value, case .string(let source)? = object["source"] else {
          throw ConformanceError(path: path, reason: "operations[\(index)]: expected {source, sourceLayer, id}")
        }
        let id: String
        switch object["id"] {
        case .string(let text)?: id = text
        case .number(let number)? where number == number.rounded() && abs(number) < 1e15:
          id = String(Int64(clamping: number))
        default: throw ConformanceError(path: path, reason: "operations[\(index)]: expected a feature id")
        }
        return (source, object["sourceLayer"]?.string, id)
      }
      switch name {
      case "wait", "idle":
        continue
      case "setZoom":
        guard parts.count > 1, case .number(let zoom) = parts[1], zoom.isFinite else {
          throw ConformanceError(path: path, reason: "operations[\(index)]: setZoom expects a zoom")
        }
        map.moveCamera(.zoomTo(min(max(Camera.zoom(forStyleZoom: zoom), 0), CameraLimits.maximumZoomLevel)))
      case "setBearing":
        guard parts.count > 1, case .number(let bearing) = parts[1], bearing.isFinite else {
          throw ConformanceError(path: path, reason: "operations[\(index)]: setBearing expects degrees")
        }
        let camera = map.camera
        // The map keeps its own limits; these only keep the tilt as it is.
        var limits = CameraLimits()
        try limits.setRaisedTiltCap(CameraLimits.absoluteMaxTilt)
        map.moveCamera(
          .setCamera(
            try Camera(
              target: camera.target, zoom: camera.zoom, bearing: bearing, viewingAngle: camera.viewingAngle,
              limits: limits)))
      case "setFeatureState":
        let target = try feature(parts.count > 1 ? parts[1] : nil)
        guard parts.count > 2, case .object(let state) = parts[2] else {
          throw ConformanceError(path: path, reason: "operations[\(index)]: setFeatureState expects a state object")
        }
        map.setFeatureState(
          Dictionary(state.pairs.map { ($0.key, StyleValue(json: $0.value)) }, uniquingKeysWith: { _, new in new }),
          source: target.source, sourceLayer: target.sourceLayer, id: target.id)
      case "removeFeatureState":
        let target = try feature(parts.count > 1 ? parts[1] : nil)
        map.removeFeatureState(
          source: target.source, sourceLayer: target.sourceLayer, id: target.id,
          key: parts.count > 2 ? parts[2].string : nil)
      default:
        continue
      }
    }
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
        let comparison = PixelDiff(threshold: PixelDiff.mapLibreThreshold, blending: .premultiplied)
        let result = try comparison.compare(image, expected)
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
        _ = FileManager.default.createFile(atPath: folder + "/actual.png", contents: Data(bytes))
      }
      if let diff = best.diff, let bytes = try? PNGCodec.encode(diff, settings: .small) {
        _ = FileManager.default.createFile(atPath: folder + "/diff.png", contents: Data(bytes))
      }
    }
    return outcome(
      passed: passed, difference: best.fraction,
      error: best.diff == nil ? (problems.isEmpty ? "no expected image" : problems.joined(separator: "; ")) : nil)
  }
}
