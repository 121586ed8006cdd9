import Foundation
import Synchronization
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers
import TesseraRender

/// The overlays of a map as a style drawn over the map's own, reusing the style layer types:
/// lines, areas and circles are features of one GeoJSON source drawn by `fill` and `line`
/// layers (antialiased, round joins and caps); gradient spans by `line-gradient`, stamps by
/// `line-pattern`, dashes by `line-dasharray`, ground overlays by image sources and `raster`,
/// tile overlays by raster sources, heatmaps by `heatmap`, the my-location dot by `circle`.
///
/// Overlays are taken in drawing order (zIndex, then the order added). Consecutive overlays
/// share a batch of layers (fill, then line, then stamped line) as long as nothing drawn later
/// has to go under something drawn earlier; a feature says its layer in its `layer` property.
struct OverlayStyle {
  /// A new source name per document, so tiles decoded for earlier overlays are never reused.
  private static let generations = Atomic<Int>(0)

  /// The style document.
  private(set) var document: JSONValue = [:]
  /// Pictures the layers use (stamps, the heading cone).
  private(set) var images: [String: SpriteImage] = [:]
  /// Ground overlays' pictures, by source id.
  private(set) var pictures: [String: ImageQuadSource] = [:]

  private let source: String
  private var metricsSource: String { source + "-metrics" }
  private var features: [JSONValue] = []
  private var metricFeatures: [JSONValue] = []
  private var sources = JSONObject()
  private var layers: [JSONValue] = []
  private var batch = 0
  /// The slots the open batch has used, with the bounding boxes of what each holds.
  private var batchSlots: [Slot: [Box]] = [:]
  private var dedicated = 0
  private let pixelRatio: Double

  /// The layers of a batch, bottom first.
  private enum Slot: Int, Comparable {
    case fill = 0
    case line = 1
    case stamp = 2
    static func < (a: Slot, b: Slot) -> Bool { a.rawValue < b.rawValue }
    var name: String { ["fill", "line", "stamp"][rawValue] }
  }

  /// The style of `overlays` (in drawing order) and the my-location layer over them; stops with
  /// ``RenderCancelledError`` between overlays once `cancellation` is cancelled.
  init(
    _ overlays: [MapOverlay], myLocation: LocationFix?, pixelRatio: Double, cancellation: RenderCancellation? = nil
  ) throws(RenderCancelledError) {
    source = "tessera-overlays-\(Self.generations.add(1, ordering: .relaxed).newValue)"
    self.pixelRatio = pixelRatio
    for overlay in overlays {
      try cancellation?.check()
      switch overlay {
      case let polyline as Polyline: add(polyline)
      case let polygon as Polygon:
        let rings = ([polygon.path] + polygon.holes).map { ring in
          let closed = OverlayGeometry.unwrapped(ring.first == ring.last ? ring : ring + ring.prefix(1))
          return polygon.geodesic ? OverlayGeometry.geodesic(closed) : closed
        }
        addPolygon(rings, fill: polygon.fillColor, stroke: polygon.strokeColor, width: polygon.strokeWidth)
      case let circle as Circle:
        let ring = OverlayGeometry.circle(center: circle.position, radius: circle.radius)
        addArea([ring], fill: circle.fillColor, stroke: circle.strokeColor, width: circle.strokeWidth)
      case let ground as GroundOverlay: add(ground)
      case let tiles as TileOverlay: add(tiles)
      case let heatmap as HeatmapOverlay: add(heatmap)
      default: continue
      }
    }
    if let myLocation { add(myLocation) }
    closeBatch()
    sources[source] = [
      "type": "geojson", "tolerance": 0, "data": ["type": "FeatureCollection", "features": .array(features)],
    ]
    if !metricFeatures.isEmpty {
      sources[metricsSource] = [
        "type": "geojson", "tolerance": 0, "lineMetrics": true,
        "data": ["type": "FeatureCollection", "features": .array(metricFeatures)],
      ]
    }
    document = ["version": 8, "name": "overlays", "sources": .object(sources), "layers": .array(layers)]
  }

  // MARK: Batches

  /// A bounding box in degrees.
  private struct Box {
    var west, south, east, north: Double

    init(_ coordinates: [Coordinate]) {
      (west, south, east, north) = (.infinity, .infinity, -.infinity, -.infinity)
      for c in coordinates {
        (west, east) = (min(west, c.longitude), max(east, c.longitude))
        (south, north) = (min(south, c.latitude), max(north, c.latitude))
      }
    }

    func intersects(_ other: Box) -> Bool {
      west <= other.east && other.west <= east && south <= other.north && other.south <= north
    }
  }

  /// The `layer` property of a feature covering `box` going into `slot` of the open batch. The
  /// batch's layers draw slot by slot, so the feature would draw under what earlier overlays
  /// put in higher slots: when it may overlap any of that (their boxes meet), a new batch
  /// starts. Overlays that do not overlap share layers whatever their order (boxes are the
  /// geometry's: where a stroke's half width reaches past its box into a later fill, the stroke
  /// may stay on top).
  private mutating func layerName(_ slot: Slot, box: Box) -> String {
    let covered = batchSlots.contains { other, boxes in other > slot && boxes.contains { $0.intersects(box) } }
    if covered { closeBatch() }
    batchSlots[slot, default: []].append(box)
    return "\(batch)-\(slot.name)"
  }

  /// Emits the open batch's layers.
  private mutating func closeBatch() {
    for slot in batchSlots.keys.sorted() {
      let name = "\(batch)-\(slot.name)"
      var layer: JSONObject = [
        "id": .string("overlay-\(name)"), "source": .string(source),
        "filter": ["==", ["get", "layer"], .string(name)],
      ]
      switch slot {
      case .fill:
        layer["type"] = "fill"
        layer["paint"] = ["fill-color": ["to-color", ["get", "color"]]]
      case .line:
        layer["type"] = "line"
        layer["layout"] = ["line-join": "round", "line-cap": "round"]
        layer["paint"] = ["line-color": ["to-color", ["get", "color"]], "line-width": ["get", "width"]]
      case .stamp:
        layer["type"] = "line"
        layer["layout"] = ["line-join": "round", "line-cap": "butt"]
        layer["paint"] = ["line-pattern": ["get", "stamp"], "line-width": ["get", "width"]]
      }
      layers.append(.object(layer))
    }
    batch += 1
    batchSlots = [:]
  }

  /// Emits a layer of its own between batches; returns its id.
  private mutating func addDedicated(_ value: JSONValue) -> String {
    closeBatch()
    guard case .object(var layer) = value else { preconditionFailure("a layer is an object") }
    let id = "overlay-own-\(dedicated)"
    dedicated += 1
    layer["id"] = .string(id)
    layers.append(.object(layer))
    return id
  }

  private mutating func feature(
    _ coordinates: [[Coordinate]], geometry: JSONValue, slot: Slot, properties: JSONObject
  ) {
    var properties = properties
    properties["layer"] = .string(layerName(slot, box: Box(Array(coordinates.joined()))))
    features.append(["type": "Feature", "geometry": geometry, "properties": .object(properties)])
  }

  // MARK: Kinds

  /// A polygon whose outer ring may cross itself: its fill is that of the simple loops the ring
  /// is made of (each keeping the holes that start inside it); its outline is the ring as given.
  private mutating func addPolygon(_ rings: [[Coordinate]], fill: Color, stroke: Color, width: Double) {
    guard let outer = rings.first else { return }
    let loops = SelfIntersection.simpleRings(outer)
    guard loops.count > 1 else {
      addArea(rings, fill: fill, stroke: stroke, width: width)
      return
    }
    let holes = rings.dropFirst()
    for loop in loops {
      let kept = holes.filter { hole in hole.first.map { SelfIntersection.contains(loop, $0) } ?? false }
      addArea([loop] + kept, fill: fill, stroke: .transparent, width: 0)
    }
    addArea(rings, fill: .transparent, stroke: stroke, width: width)
  }

  private mutating func addArea(_ rings: [[Coordinate]], fill: Color, stroke: Color, width: Double) {
    if fill.alpha > 0, let outer = rings.first, outer.count >= 4 {
      for copy in Self.worldCopies(rings.filter { $0.count >= 4 }) {
        feature(
          copy, geometry: ["type": "Polygon", "coordinates": .array(copy.map(Self.positions))], slot: .fill,
          properties: ["color": .string(Self.css(fill))])
      }
    }
    if width > 0, stroke.alpha > 0 {
      for ring in rings where ring.count >= 2 { addLine(ring, color: stroke, width: width) }
    }
  }

  private mutating func addLine(_ line: [Coordinate], color: Color, width: Double) {
    guard line.count >= 2, color.alpha > 0, width > 0 else { return }
    for copy in Self.worldCopies([line]) {
      feature(
        copy, geometry: ["type": "LineString", "coordinates": Self.positions(copy[0])], slot: .line,
        properties: ["color": .string(Self.css(color)), "width": .number(width)])
    }
  }

  private mutating func add(_ polyline: Polyline) {
    let path = OverlayGeometry.unwrapped(polyline.path)
    guard path.count >= 2, polyline.strokeWidth > 0 else { return }
    let width = polyline.strokeWidth
    func shaped(_ part: [Coordinate]) -> [Coordinate] { polyline.geodesic ? OverlayGeometry.geodesic(part) : part }
    if !polyline.strokePattern.isEmpty {
      addDashed(
        shaped(path), color: polyline.spans.first.flatMap(\.solidColor) ?? polyline.strokeColor,
        width: width, pattern: polyline.strokePattern)
      return
    }
    let spans = polyline.spans.filter { $0.segments > 0 && $0.segments.isFinite }
    guard !spans.isEmpty else {
      addLine(shaped(path), color: polyline.strokeColor, width: width)
      return
    }
    let segmentCount = Double(path.count - 1)
    var start = 0.0
    for (index, span) in spans.enumerated() where start < segmentCount {
      // The last span covers the rest of the path.
      let end = index == spans.count - 1 ? segmentCount : min(start + span.segments, segmentCount)
      let part = shaped(OverlayGeometry.slice(path, from: start, to: end, geodesic: polyline.geodesic))
      start = end
      guard part.count >= 2 else { continue }
      switch span.style {
      case .solid(let color):
        addLine(part, color: color, width: width)
      case .gradient(let from, let to):
        addGradient(part, from: from, to: to, width: width)
      case .stamp(let image):
        addStamp(part, image: image, width: width)
      }
    }
  }

  private mutating func addGradient(_ line: [Coordinate], from: Color, to: Color, width: Double) {
    let name = "gradient-\(metricFeatures.count)"
    for copy in Self.worldCopies([line]) {
      metricFeatures.append([
        "type": "Feature", "geometry": ["type": "LineString", "coordinates": Self.positions(copy[0])],
        "properties": ["part": .string(name)],
      ])
    }
    _ = addDedicated([
      "type": "line", "source": .string(metricsSource), "filter": ["==", ["get", "part"], .string(name)],
      "layout": ["line-join": "round", "line-cap": "round"],
      "paint": [
        "line-width": .number(width),
        "line-gradient": [
          "interpolate", ["linear"], ["line-progress"], 0, .string(Self.css(from)), 1, .string(Self.css(to)),
        ],
      ],
    ])
  }

  private mutating func addStamp(_ line: [Coordinate], image: RGBAImage, width: Double) {
    guard image.width > 0, image.height > 0 else { return }
    let name = "overlay-stamp-\(images.count)"
    images[name] = SpriteImage(image: OverlayPictures.stampTile(image), pixelRatio: pixelRatio)
    for copy in Self.worldCopies([line]) {
      feature(
        copy, geometry: ["type": "LineString", "coordinates": Self.positions(copy[0])], slot: .stamp,
        properties: ["stamp": .string(name), "width": .number(width)])
    }
  }

  private mutating func addDashed(_ line: [Coordinate], color: Color, width: Double, pattern: [PatternItem]) {
    guard color.alpha > 0 else { return }
    let hasDots = pattern.contains(.dot)
    // With round caps (needed for dots) every dash grows by a line width: dashes are
    // shortened and gaps lengthened by as much so the pattern keeps its lengths in points.
    var lengths: [Double] = []
    for item in pattern {
      let (dash, gap): (Double?, Double?)
      switch item {
      case .dash(let length): (dash, gap) = (max(length - (hasDots ? width : 0), 0), nil)
      case .dot: (dash, gap) = (0, nil)
      case .gap(let length): (dash, gap) = (nil, length + (hasDots ? width : 0))
      }
      if let dash {
        if lengths.count % 2 == 1 { lengths.append(0) }
        lengths.append(dash / width)
      }
      if let gap {
        if lengths.count % 2 == 0 { lengths.append(0) }
        lengths.append(gap / width)
      }
    }
    if lengths.count % 2 == 1 { lengths.append(hasDots ? 1 : 0) }
    guard lengths.contains(where: { $0 > 0 }) else { return }
    let name = "dash-\(layers.count)"
    var properties = JSONObject()
    properties["part"] = .string(name)
    for copy in Self.worldCopies([line]) {
      features.append([
        "type": "Feature", "geometry": ["type": "LineString", "coordinates": Self.positions(copy[0])],
        "properties": .object(properties),
      ])
    }
    _ = addDedicated([
      "type": "line", "source": .string(source), "filter": ["==", ["get", "part"], .string(name)],
      "layout": ["line-join": "round", "line-cap": hasDots ? "round" : "butt"],
      "paint": [
        "line-width": .number(width), "line-color": .string(Self.css(color)),
        "line-dasharray": .array(lengths.map { .number($0) }),
      ],
    ])
  }

  private mutating func add(_ ground: GroundOverlay) {
    guard let icon = ground.icon, let corners = ground.corners, ground.opacity > 0 else { return }
    let id = "\(source)-ground-\(pictures.count)"
    pictures[id] = ImageQuadSource(name: ground.title ?? "ground overlay", image: icon, corners: corners)
    sources[id] = [
      "type": "image", "url": .string("memory://\(id)"),
      "coordinates": .array(corners.map { [.number($0.longitude), .number($0.latitude)] }),
    ]
    _ = addDedicated([
      "type": "raster", "source": .string(id),
      "paint": ["raster-opacity": .number(min(max(ground.opacity, 0), 1)), "raster-fade-duration": 0],
    ])
  }

  private mutating func add(_ tiles: TileOverlay) {
    guard tiles.opacity > 0 else { return }
    let id = "\(source)-tiles-\(layers.count)"
    sources[id] =
      tiles.isTemplate
      ? ["type": "raster", "tiles": [.string(tiles.source)], "tileSize": .number(Double(tiles.tileSize))]
      : ["type": "raster", "url": .string(tiles.source), "tileSize": .number(Double(tiles.tileSize))]
    _ = addDedicated([
      "type": "raster", "source": .string(id),
      "paint": ["raster-opacity": .number(min(max(tiles.opacity, 0), 1)), "raster-fade-duration": 0],
    ])
  }

  private mutating func add(_ heatmap: HeatmapOverlay) {
    let points = heatmap.points.filter { $0.intensity > 0 && $0.intensity.isFinite }
    guard !points.isEmpty, heatmap.opacity > 0, let first = heatmap.gradient.first else { return }
    let id = "\(source)-heat-\(layers.count)"
    sources[id] = [
      "type": "geojson", "tolerance": 0,
      "data": [
        "type": "FeatureCollection",
        "features": .array(
          points.map { point in
            [
              "type": "Feature",
              "geometry": [
                "type": "Point",
                "coordinates": [.number(point.coordinate.longitude), .number(point.coordinate.latitude)],
              ],
              "properties": ["weight": .number(point.intensity)],
            ]
          }),
      ],
    ]
    // Below the first stop the first colour fades out (the utility library's colour map).
    var ramp: [JSONValue] = ["interpolate", ["linear"], ["heatmap-density"]]
    var faded = first.color
    faded.alpha = 0
    if first.density > 0 { ramp += [0, .string(Self.css(faded))] }
    var last = -1.0
    for stop in heatmap.gradient where stop.density > last && stop.density <= 1 {
      ramp += [.number(max(stop.density, 0)), .string(Self.css(stop.color))]
      last = stop.density
    }
    if ramp.count < 7 { ramp += [1, .string(Self.css(first.color))] }
    _ = addDedicated([
      "type": "heatmap", "source": .string(id),
      "paint": [
        "heatmap-weight": ["get", "weight"], "heatmap-radius": .number(heatmap.radius),
        "heatmap-intensity": .number(heatmap.intensity), "heatmap-opacity": .number(min(max(heatmap.opacity, 0), 1)),
        "heatmap-color": .array(ramp),
      ],
    ])
  }

  /// Google's location blue.
  static let locationBlue = Color(r: 66, g: 133, b: 244)

  private mutating func add(_ fix: LocationFix) {
    var fill = Self.locationBlue
    fill.alpha = 0.15
    var outline = Self.locationBlue
    outline.alpha = 0.35
    if fix.horizontalAccuracy > 0 {
      let ring = OverlayGeometry.circle(center: fix.coordinate, radius: fix.horizontalAccuracy)
      addArea([ring], fill: fill, stroke: outline, width: 1)
    }
    let point: JSONValue = [
      "type": "Point", "coordinates": [.number(fix.coordinate.longitude), .number(fix.coordinate.latitude)],
    ]
    var properties = JSONObject()
    properties["part"] = "my-location"
    features.append(["type": "Feature", "geometry": point, "properties": .object(properties)])
    let isDot: JSONValue = ["==", ["get", "part"], "my-location"]
    if let heading = fix.heading, heading.isFinite {
      images["my-location-cone"] = SpriteImage(
        image: OverlayPictures.headingCone(scale: pixelRatio), pixelRatio: pixelRatio)
      _ = addDedicated([
        "type": "symbol", "source": .string(source), "filter": isDot,
        "layout": [
          "icon-image": "my-location-cone", "icon-rotate": .number(heading), "icon-rotation-alignment": "map",
          "icon-pitch-alignment": "map", "icon-allow-overlap": true, "icon-ignore-placement": true,
        ],
      ])
    }
    _ = addDedicated([
      "type": "circle", "source": .string(source), "filter": isDot,
      "paint": ["circle-radius": 11, "circle-color": "rgba(0, 0, 0, 0.18)", "circle-blur": 0.4],
    ])
    _ = addDedicated([
      "type": "circle", "source": .string(source), "filter": isDot,
      "paint": [
        "circle-radius": 6.5, "circle-color": .string(Self.css(Self.locationBlue)), "circle-stroke-width": 2.5,
        "circle-stroke-color": "#ffffff",
      ],
    ])
  }

  // MARK: Encoding

  /// `rings` and, where they reach past ±180° of longitude, copies moved by a turn, so that
  /// the part beyond the antimeridian shows in the world it reaches into (tiles cut each copy
  /// at the world's edge).
  private static func worldCopies(_ rings: [[Coordinate]]) -> [[[Coordinate]]] {
    let longitudes = rings.joined().map(\.longitude)
    guard let west = longitudes.min(), let east = longitudes.max() else { return [] }
    var copies = [rings]
    var shift = -360.0
    while east + shift > -180, shift >= -720 {
      copies.append(rings.map { $0.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude + shift) } })
      shift -= 360
    }
    shift = 360
    while west + shift < 180, shift <= 720 {
      copies.append(rings.map { $0.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude + shift) } })
      shift += 360
    }
    return copies
  }

  /// GeoJSON positions ([longitude, latitude]) of `coordinates`.
  private static func positions(_ coordinates: [Coordinate]) -> JSONValue {
    .array(coordinates.map { [.number($0.longitude), .number($0.latitude)] })
  }

  /// `color` as CSS `rgba(…)`.
  static func css(_ color: Color) -> String {
    func channel(_ value: Double) -> Int { Int(clamping: (min(max(value, 0), 1) * 255).rounded()) }
    return
      "rgba(\(channel(color.red)), \(channel(color.green)), \(channel(color.blue)), \(min(max(color.alpha, 0), 1)))"
  }
}

extension StyleSpan {
  /// The colour of a solid span.
  var solidColor: Color? {
    if case .solid(let color) = style { return color }
    return nil
  }
}
