import TesseraJSON
import TesseraStyle
import TesseraTestSupport
import Testing

/// Seeded mutations of style documents: every mutant parses or fails with a ``StyleError``,
/// never a crash, and every property of a parsed mutant evaluates.
@Suite struct StyleFuzzTests {
  static let seeds: [String] = [
    #"{"version": 8, "sources": {"v": {"type": "vector", "url": "mbtiles://a.mbtiles"}}, "layers": [{"id": "f", "type": "fill", "source": "v", "source-layer": "water", "filter": ["all", ["==", "$type", "Polygon"], [">", ["get", "h"], 3]], "paint": {"fill-color": ["interpolate", ["linear"], ["zoom"], 5, "rgba(1,2,3,0.5)", 10, "hsl(200, 50%, 40%)"], "fill-opacity": {"stops": [[4, 0], [6, 1]]}}}]}"#,
    #"{"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [1, 2]}}}, "layers": [{"id": "c", "type": "circle", "source": "g", "paint": {"circle-radius": ["match", ["get", "k"], ["a", "b"], 4, ["case", ["has", "x"], ["*", 2, ["to-number", ["get", "x"]]], 1]], "circle-color": {"property": "k", "type": "categorical", "stops": [["a", "red"], ["b", "blue"]]}}}]}"#,
    #"{"version": 8, "sources": {"v": {"type": "vector", "tiles": ["x/{z}/{x}/{y}.pbf"]}}, "layers": [{"id": "l", "type": "line", "source": "v", "source-layer": "roads", "layout": {"line-join": ["step", ["zoom"], "miter", 12, "round"], "line-cap": "round"}, "paint": {"line-width": {"base": 1.4, "stops": [[{"zoom": 5, "value": 1}, 1], [{"zoom": 10, "value": 1}, 6]], "property": "lanes"}, "line-dasharray": [2, 1], "line-color": ["let", "v", 3, ["rgb", ["var", "v"], 20, 30]]}}]}"#,
  ]

  @Test func mutatedStylesParseOrFailCleanly() {
    var random = SeededRandom(seed: 0x57_71E)
    var parsed = 0
    var rejected = 0
    for iteration in 0..<3000 {
      let seed = Array(StyleFuzzTests.seeds[iteration % StyleFuzzTests.seeds.count].utf8)
      let mutant = random.mutate(seed)
      do {
        let style = try Style.parse(mutant, source: "mutant \(iteration)")
        for layer in style.layers {
          for property in layer.properties.values { _ = property.evaluate(zoom: Double(iteration % 23)) }
        }
        parsed += 1
      } catch {
        rejected += 1
      }
    }
    #expect(parsed + rejected == 3000)
    // Most mutations break the JSON; some leave a valid, different style.
    #expect(parsed > 20 && rejected > 1000, "parsed \(parsed), rejected \(rejected)")
  }
}
