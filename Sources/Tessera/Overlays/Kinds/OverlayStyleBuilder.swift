import Synchronization
import TesseraData
import TesseraGeo
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// The style the overlays of a map are drawn with, over the map's own, reusing the style layer
/// types: each kind adds its layers through the typed calls below (``OverlayKind/addLayers(_:to:)``).
/// Lines, areas and points are features of one GeoJSON source; consecutive overlays share a
/// batch of layers (fill, then line, then stamped line) as long as nothing drawn later has to
/// go under something drawn earlier; overlays needing layers of their own (dashes, gradients,
/// pictures, tiles, heatmaps) get them between batches.
package struct OverlayStyleBuilder {
  /// A new source name per style, so tiles decoded for earlier overlays are never reused.
  private static let generations = Atomic<Int>(0)

  /// Pictures the layers use (stamps, the heading cone), by name.
  private(set) var images: [String: SpriteImage] = [:]
  /// Pictures lying on the map (ground overlays), by source id.
  private(set) var pictures: [String: ImageQuadSource] = [:]
  /// Device pixels per point of the map drawn.
  package let pixelRatio: Double

  private let source: String
  private var metricsSource: String { source + "-metrics" }
  private var features: [JSONValue] = []
  private var metricFeatures: [JSONValue] = []
  private var sources = JSONObject()
  private var layers: [JSONValue] = []
  private var batch = 0
  /// The slots the open batch has used, with the bounding boxes of what each holds.
  private var batchSlots: [Slot: [OverlayBox]] = [:]
  private var dedicated = 0

  /// The layers of a batch, bottom first.
  private enum Slot: Int, Comparable {
    case fill = 0
    case line = 1
    case stamp = 2
    static func < (a: Slot, b: Slot) -> Bool { a.rawValue < b.rawValue }
    var name: String { ["fill", "line", "stamp"][rawValue] }
  }

  package init(pixelRatio: Double) {
    source = "tessera-overlays-\(Self.generations.add(1, ordering: .relaxed).newValue)"
    self.pixelRatio = pixelRatio
  }

  /// The style document the renderer reads, once every overlay is added.
  package mutating func finish() -> JSONValue {
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
    return ["version": 8, "name": "overlays", "sources": .object(sources), "layers": .array(layers)]
  }

  // MARK: Shared layers

  /// Fills `rings` (outer ring first, then holes; even-odd) in `fill` and outlines each ring
  /// `width` points wide in `stroke`; transparent colours and a width of 0 draw nothing.
  package mutating func addArea(_ rings: [[Coordinate]], fill: Color, stroke: Color, width: Double) {
    if fill.alpha > 0, let outer = rings.first, outer.count >= 4 {
      for copy in OverlayBox.worldCopies(rings.filter { $0.count >= 4 }) {
        feature(
          copy, geometry: ["type": "Polygon", "coordinates": .array(copy.map(Self.positions))], slot: .fill,
          properties: Self.color(fill))
      }
    }
    if width > 0, stroke.alpha > 0 {
      for ring in rings where ring.count >= 2 { addLine(ring, color: stroke, width: width) }
    }
  }

  /// A line through `line`, `width` points wide in `color`, with round joins and caps.
  package mutating func addLine(_ line: [Coordinate], color: Color, width: Double) {
    guard line.count >= 2, color.alpha > 0, width > 0 else { return }
    var properties = Self.color(color)
    properties["width"] = .number(width)
    for copy in OverlayBox.worldCopies([line]) {
      feature(
        copy, geometry: ["type": "LineString", "coordinates": Self.positions(copy[0])], slot: .line,
        properties: properties)
    }
  }

  /// A line `width` points wide drawn with `image` repeated along it (made into a stamp tile).
  package mutating func addStampedLine(_ line: [Coordinate], image: RGBAImage, width: Double) {
    guard image.width > 0, image.height > 0 else { return }
    let name = "overlay-stamp-\(images.count)"
    images[name] = SpriteImage(image: OverlayPictures.stampTile(image), pixelRatio: pixelRatio)
    for copy in OverlayBox.worldCopies([line]) {
      feature(
        copy, geometry: ["type": "LineString", "coordinates": Self.positions(copy[0])], slot: .stamp,
        properties: ["stamp": .string(name), "width": .number(width)])
    }
  }

  // MARK: Layers of their own

  /// Adds `line` as a feature only `layer` (``OverlayLayer/Source/features``, or
  /// ``OverlayLayer/Source/lineMetrics`` for gradients) draws, then the layer.
  package mutating func addLine(_ line: [Coordinate], drawnBy layer: OverlayLayer) {
    var layer = layer
    let metrics = layer.source == .lineMetrics
    let name = metrics ? "gradient-\(metricFeatures.count)" : "dash-\(layers.count)"
    layer.filter = ("part", name)
    for copy in OverlayBox.worldCopies([line]) {
      let feature: JSONValue = [
        "type": "Feature", "geometry": ["type": "LineString", "coordinates": Self.positions(copy[0])],
        "properties": ["part": .string(name)],
      ]
      if metrics { metricFeatures.append(feature) } else { features.append(feature) }
    }
    addLayer(layer)
  }

  /// Adds a point feature of the shared source with `part` set (for layers filtering on it).
  package mutating func addPoint(_ coordinate: Coordinate, part: String) {
    features.append([
      "type": "Feature", "geometry": ["type": "Point", "coordinates": Self.position(coordinate)],
      "properties": ["part": .string(part)],
    ])
  }

  /// Adds a point feature of the shared source with a `part` of its own, which it returns.
  package mutating func addPoint(_ coordinate: Coordinate) -> String {
    let part = "point-\(features.count)"
    addPoint(coordinate, part: part)
    return part
  }

  /// A GeoJSON source of points with a numeric property `property` each; returns its id.
  package mutating func addPointSource(_ points: [(Coordinate, Double)], property: String, kind: String) -> String {
    let id = "\(source)-\(kind)-\(layers.count)"
    sources[id] = [
      "type": "geojson", "tolerance": 0,
      "data": [
        "type": "FeatureCollection",
        "features": .array(
          points.map { point, value in
            [
              "type": "Feature", "geometry": ["type": "Point", "coordinates": Self.position(point)],
              "properties": .object(JSONObject([(property, .number(value))])),
            ]
          }),
      ],
    ]
    return id
  }

  /// A picture lying on the map with its corners (top left, top right, bottom right, bottom
  /// left) at `corners`; returns its source id.
  package mutating func addImageSource(_ image: RGBAImage, corners: [Coordinate], name: String) -> String {
    let id = "\(source)-ground-\(pictures.count)"
    pictures[id] = ImageQuadSource(name: name, image: image, corners: corners)
    sources[id] = [
      "type": "image", "url": .string("memory://\(id)"),
      "coordinates": .array(corners.map(Self.position)),
    ]
    return id
  }

  /// Raster tiles: a template of tile URLs (`{x}`, `{y}`, `{z}`) or one source's URL, tiles
  /// `tileSize` pixels square; returns its source id.
  package mutating func addRasterSource(_ url: String, isTemplate: Bool, tileSize: Int) -> String {
    let id = "\(source)-tiles-\(layers.count)"
    sources[id] =
      isTemplate
      ? ["type": "raster", "tiles": [.string(url)], "tileSize": .number(Double(tileSize))]
      : ["type": "raster", "url": .string(url), "tileSize": .number(Double(tileSize))]
    return id
  }

  /// A picture the layers may name (icons), `pixelRatio` device pixels per point.
  package mutating func addImage(_ image: RGBAImage, named name: String) {
    images[name] = SpriteImage(image: image, pixelRatio: pixelRatio)
  }

  /// Closes the open batch and adds `layer` above it.
  package mutating func addLayer(_ layer: OverlayLayer) {
    closeBatch()
    let id = "overlay-own-\(dedicated)"
    dedicated += 1
    let sourceID: String
    switch layer.source {
    case .features: sourceID = source
    case .lineMetrics: sourceID = metricsSource
    case .own(let own): sourceID = own
    }
    layers.append(layer.definition(id: id, sourceID: sourceID))
  }

  // MARK: Batches

  /// Adds a feature of the shared source into `slot` of a batch. The batch's layers draw slot
  /// by slot, so the feature would draw under what earlier overlays put in higher slots: when
  /// it may overlap any of that (their boxes meet), a new batch starts. Overlays that do not
  /// overlap share layers whatever their order.
  private mutating func feature(
    _ coordinates: [[Coordinate]], geometry: JSONValue, slot: Slot, properties: JSONObject
  ) {
    let box = OverlayBox(Array(coordinates.joined()))
    let covered = batchSlots.contains { other, boxes in other > slot && boxes.contains { $0.intersects(box) } }
    if covered { closeBatch() }
    batchSlots[slot, default: []].append(box)
    var properties = properties
    properties["layer"] = .string("\(batch)-\(slot.name)")
    features.append(["type": "Feature", "geometry": geometry, "properties": .object(properties)])
  }

  /// Emits the open batch's layers.
  private mutating func closeBatch() {
    for slot in batchSlots.keys.sorted() {
      let name = "\(batch)-\(slot.name)"
      var layer: OverlayLayer
      switch slot {
      case .fill:
        layer = OverlayLayer(.fill, source: .features)
        layer.setColorFromFeature()
      case .line:
        layer = OverlayLayer(.line, source: .features)
        layer.setLineJoin(.round)
        layer.setLineCap(.round)
        layer.setColorFromFeature()
        layer.setLineWidthFromFeature()
      case .stamp:
        layer = OverlayLayer(.line, source: .features)
        layer.setLineJoin(.round)
        layer.setLineCap(.butt)
        layer.setLinePatternFromFeature()
        layer.setLineWidthFromFeature()
      }
      layer.filter = ("layer", name)
      layers.append(layer.definition(id: "overlay-\(name)", sourceID: source))
    }
    batch += 1
    batchSlots = [:]
  }

  // MARK: Encoding

  /// A feature's colour: its channels as the `r`, `g`, `b` (0…255) and `a` (0…1) properties
  /// the shared layers read.
  private static func color(_ color: Color) -> JSONObject {
    let channels = OverlayLayer.channels(color)
    return [
      "r": .number(channels.red), "g": .number(channels.green), "b": .number(channels.blue),
      "a": .number(channels.alpha),
    ]
  }

  /// A GeoJSON position ([longitude, latitude]).
  private static func position(_ coordinate: Coordinate) -> JSONValue {
    [.number(coordinate.longitude), .number(coordinate.latitude)]
  }

  /// GeoJSON positions of `coordinates`.
  private static func positions(_ coordinates: [Coordinate]) -> JSONValue {
    .array(coordinates.map(position))
  }
}
