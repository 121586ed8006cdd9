import Foundation
import TesseraData
import TesseraJSON
import TesseraStyle
import TesseraTestSupport
import Testing

@testable import TesseraRender

/// Filters prepared per tile layer (one evaluation per distinct attribute value) accept exactly
/// the features the interpreter accepts, failures and short-circuits included.
@Suite struct TileLayerFilterTests {
  /// A layer whose features mix strings, numbers, booleans, missing attributes and all
  /// geometry types.
  static let layer: VectorTileLayer = {
    let values: [FeatureValue] = [
      .string("park"), .string("wood"), .number(2), .number(7), .string("2"), .bool(true), .string("Nice"),
      .number(0),
    ]
    var features: [VectorFeature] = []
    let types: [GeometryType] = [.point, .lineString, .polygon, .unknown]
    for index in 0..<64 {
      var tags: [UInt32] = []
      // class: any value or none; rank: any value or none; name on some.
      if index % 9 != 8 { tags += [0, UInt32(index % 8)] }
      if index % 5 != 4 { tags += [1, UInt32((index / 3) % 8)] }
      if index % 4 == 0 { tags += [2, 6] }
      features.append(
        VectorFeature(id: UInt64(index), type: types[index % 4], tags: tags, geometry: [[TilePoint(x: 0, y: 0)]]))
    }
    return VectorTileLayer(name: "test", keys: ["class", "rank", "name"], values: values, features: features)
  }()

  static let filters: [String] = [
    #"["==", ["get", "class"], "park"]"#,
    #"["==", "class", "park"]"#,
    #"["!=", "class", "park"]"#,
    #"["in", "class", "park", "wood", 2]"#,
    #"["!in", "class", "park", 2]"#,
    #"["<", "rank", 5]"#,
    #"[">=", "rank", "2"]"#,
    #"["has", "name"]"#,
    #"["!has", "rank"]"#,
    #"["==", "$type", "Polygon"]"#,
    #"["all", ["==", "$type", "LineString"], ["in", "class", "park", "wood"]]"#,
    #"["any", ["<", ["get", "rank"], 3], ["==", ["get", "class"], "wood"]]"#,
    // A comparison that fails on strings: the failure rejects the feature, before or after
    // the other test decides.
    #"["all", [">", ["get", "rank"], 1], ["==", ["get", "class"], "park"]]"#,
    #"["any", ["==", ["get", "class"], "park"], [">", ["get", "rank"], 1]]"#,
    #"["!", [">", ["get", "rank"], 1]]"#,
    #"["match", ["get", "class"], ["park", "wood"], true, false]"#,
    #"["match", ["get", "class"], ["park"], "yes", false]"#,
    #"["==", ["get", "class"], ["get", "rank"]]"#,
    #"["all", ["==", ["get", "class"], ["get", "rank"]], ["has", "name"]]"#,
    #"["any", ["==", ["id"], 3], ["has", "name"]]"#,
    #"[">", ["zoom"], 14]"#,
    #"["all", [">", ["zoom"], 12], ["!=", ["geometry-type"], "Point"], ["to-boolean", ["get", "rank"]]]"#,
    #"["let", "c", ["get", "class"], ["==", ["var", "c"], "wood"]]"#,
    #"["none", ["==", "class", "wood"], ["==", "$type", "Point"]]"#,
    #"false"#,
  ]

  @Test(arguments: filters)
  func preparedFiltersAcceptWhatTheInterpreterAccepts(_ text: String) throws {
    let style = try Self.style(filter: text)
    let layer = try #require(style.layers.first)
    for zoom in [12.0, 15.0] {
      var prepared = TileLayerFilter(layer.filter, layer: Self.layer, zoom: zoom)
      let shared = TileFeatureLayer(layer: Self.layer)
      for index in Self.layer.features.indices {
        let feature = TileFeature(shared, index: index)
        let expected = layer.accepts(feature, zoom: zoom)
        #expect(prepared.accepts(index, feature) == expected, "\(text) feature \(index) zoom \(zoom)")
        // Only tests of two attributes or of the id need the interpreter.
        let readsSeveral = text.contains(#"["get", "class"], ["get", "rank"]"#) || text.contains(#"["id"]"#)
        #expect(prepared.isPrepared == !readsSeveral)
      }
      // Asked again, the remembered outcomes give the same answers.
      for index in Self.layer.features.indices {
        #expect(
          prepared.accepts(index, TileFeature(shared, index: index))
            == layer.accepts(
              TileFeature(shared, index: index), zoom: zoom))
      }
    }
  }

  @Test func featureDependenceNamesWhatIsRead() throws {
    func dependence(_ text: String) throws -> TesseraStyle.Expression.FeatureDependence {
      try Self.style(filter: text).layers[0].filter!.featureDependence
    }
    #expect(try dependence(#"["==", ["get", "class"], "park"]"#) == .property("class"))
    #expect(try dependence(#"["<", "rank", 5]"#) == .property("rank"))
    #expect(try dependence(#"["==", "$type", "Point"]"#) == .geometryType)
    #expect(try dependence(#"[">", ["zoom"], 3]"#) == .none)
    #expect(try dependence(#"["all", ["has", "a"], ["has", "b"]]"#) == .several)
    #expect(try dependence(#"["==", ["get", ["concat", "cl", "ass"]], "x"]"#) == .several)
    #expect(try dependence(#"["==", ["id"], 1]"#) == .several)
  }

  /// Every filter of the shared styles, on every layer of the Monaco sample tiles, at several
  /// zooms: the prepared filters agree with the interpreter feature by feature.
  @Test(.enabled(if: SharedData.isAvailable, Comment(rawValue: SharedData.skipReason)))
  func sharedStylesAgreeOnTheMonacoTiles() throws {
    let tiles = try FileManager.default.subpathsOfDirectory(atPath: SharedData.path("data/samples/mvt"))
      .filter { $0.hasSuffix(".mvt") }.sorted()
    #expect(tiles.count >= 4)
    var compared = 0
    var accepted = 0
    var interpreted: Set<String> = []
    for name in ["monaco-liberty.json", "monaco-basic.json"] {
      let style = try Style.load(path: SharedData.path("data/styles/" + name))
      for path in tiles {
        let tile = try MVTDecoder.decode(try SharedData.bytes("data/samples/mvt/" + path))
        for layer in style.layers where layer.filter != nil {
          guard let data = tile.layers.first(where: { $0.name == layer.sourceLayer }) else { continue }
          let shared = TileFeatureLayer(layer: data)
          for zoom in [11.0, 14.0, 16.5] {
            var prepared = TileLayerFilter(layer.filter, layer: data, zoom: zoom)
            if !prepared.isPrepared { interpreted.insert(layer.id) }
            for index in data.features.indices {
              let feature = TileFeature(shared, index: index)
              let expected = layer.accepts(feature, zoom: zoom)
              if prepared.accepts(index, feature) != expected {
                Issue.record("\(name) layer \(layer.id) tile \(path) feature \(index) zoom \(zoom)")
              }
              compared += 1
              accepted += expected ? 1 : 0
            }
          }
        }
      }
    }
    #expect(compared > 100_000 && accepted > 1_000, "\(compared) compared, \(accepted) accepted")
    // Their filters test one attribute at a time: none needs the interpreter per feature.
    #expect(interpreted.isEmpty, "interpreted per feature: \(interpreted.sorted())")
  }

  static func style(filter: String) throws -> Style {
    try Style.parse(
      Array(
        (#"{"version": 8, "sources": {"s": {"type": "vector", "tiles": ["x/{z}/{x}/{y}.pbf"]}}, "layers": [{"id": "l", "type": "fill", "source": "s", "source-layer": "test", "filter": "#
          + filter + "}]}").utf8))
  }
}
