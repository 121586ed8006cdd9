import Foundation
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// One MapLibre render test: a style whose `metadata.test` gives the view, and the image
/// MapLibre expects.
public struct ConformanceCase: Sendable {
  /// `category/name`, e.g. `line-join/round`.
  public let id: String
  public let category: String
  public let directory: String
  /// The style document.
  public let style: JSONValue
  /// View size in points and device pixel ratio.
  public let width: Double
  public let height: Double
  public let pixelRatio: Double
  /// The largest fraction of mismatched pixels that passes.
  public let allowed: Double
  /// The camera: MapLibre (style) zoom, bearing and pitch in degrees.
  public let center: Coordinate
  public let zoom: Double
  public let bearing: Double
  public let pitch: Double
  /// The reference images (any one matching passes).
  public let expectedImages: [String]
  /// Why upstream skips the case, when it does.
  public let upstreamIgnored: String?
  /// Why the case cannot be rendered (its style is not valid JSON), when it cannot: the case
  /// then fails alone.
  public let problem: String?
  /// What the case does to the map before its snapshot (`metadata.test.operations`, e.g.
  /// `["setFeatureState", {…}, {…}]`).
  public var operations: [JSONValue] = []
  /// `mapMode: "tile"`: the 512-pixel tiles covering the view are rendered one by one and
  /// laid side by side, as MapLibre Native's runner does.
  public var tileMode = false
  /// `debug: true`: tile borders drawn (2-pixel red outlines).
  public var debug = false
  /// `collisionDebug: true`: the collision circles of labels along lines drawn.
  public var collisionDebug = false
}

/// A folder of MapLibre render tests (`render-tests/<category>/<case>/style.json` with
/// `expected*.png`, fixtures under `tiles/`, an optional `manifest.json` naming cases upstream
/// ignores).
public struct ConformanceSuite: Sendable {
  public let root: String
  public let cases: [ConformanceCase]

  /// Reads every case under `root`; throws when the folder has no `render-tests`.
  public init(root: String) throws(ConformanceError) {
    self.root = root
    let testsRoot = root + "/render-tests"
    let files = FileManager.default
    guard let categories = try? files.contentsOfDirectory(atPath: testsRoot) else {
      throw ConformanceError(path: testsRoot, reason: "no render-tests folder")
    }
    let ignored = ConformanceSuite.readIgnored(root + "/manifest.json")
    var cases: [ConformanceCase] = []
    for category in categories.sorted() {
      // Cases may nest (line-dasharray/literal/line-width-constant).
      let paths = (files.subpaths(atPath: "\(testsRoot)/\(category)") ?? []).filter {
        ($0 as NSString).lastPathComponent == "style.json"
      }
      for path in paths.sorted() {
        let name = (path as NSString).deletingLastPathComponent
        guard !name.isEmpty else { continue }
        let directory = "\(testsRoot)/\(category)/\(name)"
        cases.append(try ConformanceSuite.readCase(directory, category: category, name: name, ignored: ignored))
      }
    }
    self.cases = cases
  }

  /// The cases whose category or id starts with `filter` (all when nil).
  public func cases(matching filter: String?) -> [ConformanceCase] {
    guard let filter, !filter.isEmpty else { return cases }
    return cases.filter { $0.id.hasPrefix(filter) || $0.category == filter }
  }

  private static func readCase(_ directory: String, category: String, name: String, ignored: [String: String])
    throws(ConformanceError) -> ConformanceCase
  {
    let path = directory + "/style.json"
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ConformanceError(path: path, reason: "cannot read")
    }
    var style = JSONValue.null
    var problem: String?
    do {
      style = try JSONParser.parse(Array(data))
    } catch {
      problem = "\(path): invalid JSON at \(error)"
    }
    let test = style["metadata"]?["test"]
    func number(_ value: JSONValue?, _ fallback: Double) -> Double { value?.number ?? fallback }
    let centre = style["center"]?.array ?? []
    let expected = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
      $0.hasPrefix("expected") && $0.hasSuffix(".png")
    }.sorted().map { directory + "/" + $0 }
    let id = "\(category)/\(name)"
    let tileMode = test?["mapMode"]?.string == "tile"
    return ConformanceCase(
      id: id, category: category, directory: directory, style: style,
      width: tileMode ? 512 : number(test?["width"], 512), height: tileMode ? 512 : number(test?["height"], 512),
      pixelRatio: number(test?["pixelRatio"], 1), allowed: number(test?["allowed"], PixelDiff.mapLibreAllowedFraction),
      center: Coordinate(
        latitude: centre.count > 1 ? centre[1].number ?? 0 : 0, longitude: centre.first?.number ?? 0),
      zoom: number(style["zoom"], 0), bearing: number(style["bearing"], 0), pitch: number(style["pitch"], 0),
      expectedImages: expected, upstreamIgnored: ignored[id], problem: problem,
      operations: test?["operations"]?.array ?? [], tileMode: tileMode, debug: test?["debug"]?.bool == true,
      collisionDebug: test?["collisionDebug"]?.bool == true)
  }

  /// Case id → reason, from the manifest's `upstreamIgnored` entries.
  private static func readIgnored(_ path: String) -> [String: String] {
    guard let data = FileManager.default.contents(atPath: path),
      let entries = (try? JSONParser.parse(Array(data)))?.array
    else { return [:] }
    var ignored: [String: String] = [:]
    for entry in entries {
      guard let id = entry["case"]?.string, let reasons = entry["upstreamIgnored"]?.object else { continue }
      ignored[id] = reasons.pairs.map { "\($0.0): \($0.1.string ?? $0.1.serialized())" }.joined(separator: "; ")
    }
    return ignored
  }
}

/// A render-test folder or case that cannot be read.
public struct ConformanceError: Error, CustomStringConvertible {
  public let path: String
  public let reason: String
  public var description: String { "\(path): \(reason)" }
}
