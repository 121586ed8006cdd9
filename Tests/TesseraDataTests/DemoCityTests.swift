import TesseraData
import TesseraGeo
import Testing

@Suite struct DemoCityTests {
  let tile = TileID(z: 15, x: 17059, y: 11948)

  @Test func sameSeedSameTileOtherSeedOtherTile() {
    let a = MVTEncoder.encode(DemoCitySource(seed: 1).makeTile(tile))
    let b = MVTEncoder.encode(DemoCitySource(seed: 1).makeTile(tile))
    let c = MVTEncoder.encode(DemoCitySource(seed: 2).makeTile(tile))
    #expect(a == b && a != c)
  }

  @Test func tilesFollowTheOpenMapTilesSchema() throws {
    let city = DemoCitySource()
    let tile = city.makeTile(TileID(z: 15, x: 17059, y: 11948))
    let names = Set(tile.layers.map(\.name))
    #expect(names.isSuperset(of: ["transportation", "building", "landuse"]))
    let buildings = try #require(tile.layer(named: "building"))
    #expect(buildings.features.count > 20)
    for feature in buildings.features {
      guard case .number(let height)? = buildings.value(of: feature, forKey: "render_height"),
        case .number(let base)? = buildings.value(of: feature, forKey: "render_min_height")
      else {
        Issue.record("a building without heights")
        continue
      }
      #expect(height > base && height <= 200)
      #expect(feature.polygons.count == 1)
    }
    let roads = try #require(tile.layer(named: "transportation"))
    let classes = Set(roads.features.compactMap { roads.value(of: $0, forKey: "class")?.description })
    #expect(classes.isSubset(of: ["motorway", "trunk", "primary", "secondary", "tertiary", "minor", "path"]))
    #expect(classes.contains("minor"))
    let streetNames = try #require(tile.layer(named: "transportation_name"))
    #expect(streetNames.features.allSatisfy { streetNames.value(of: $0, forKey: "name") != nil })
  }

  @Test func namesCarryTranslationsInSeveralScripts() throws {
    let city = DemoCitySource()
    let streets = try #require(city.makeTile(TileID(z: 15, x: 17059, y: 11948)).layer(named: "transportation_name"))
    // A regional tile holds district, town and city names.
    let places = try #require(city.makeTile(TileID(z: 11, x: 602, y: 769)).layer(named: "place"))
    #expect(places.features.count > 4)
    for (layer, feature) in streets.features.map({ (streets, $0) }) + places.features.map({ (places, $0) }) {
      let name = layer.value(of: feature, forKey: "name")?.description ?? ""
      for language in ["fa", "ar", "hi", "zh", "ru"] {
        let translated = layer.value(of: feature, forKey: "name:\(language)")?.description ?? ""
        #expect(!translated.isEmpty && translated != name, "\(name) lacks name:\(language)")
      }
      #expect(layer.value(of: feature, forKey: "name_int")?.description == name)
    }
    // Persian street names use Arabic letters; Hindi Devanagari; Chinese Han characters.
    let first = try #require(streets.features.first)
    let persian = streets.value(of: first, forKey: "name:fa")?.description ?? ""
    let hindi = streets.value(of: first, forKey: "name:hi")?.description ?? ""
    let chinese = streets.value(of: first, forKey: "name:zh")?.description ?? ""
    #expect(persian.unicodeScalars.contains { (0x0600...0x06FF).contains($0.value) })
    #expect(hindi.unicodeScalars.contains { (0x0900...0x097F).contains($0.value) })
    #expect(chinese.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) })
  }

  @Test func majorRoadsHaveRouteNumbersAndHousesHaveNumbers() throws {
    let city = DemoCitySource()
    let regional = city.makeTile(TileID(z: 11, x: 602, y: 769))
    let names = try #require(regional.layer(named: "transportation_name"))
    let references = names.features.compactMap { names.value(of: $0, forKey: "ref")?.description }
    #expect(!references.isEmpty)
    #expect(references.allSatisfy { $0.first.map { "MAB".contains($0) } == true && $0.count <= 3 })
    let street = city.makeTile(TileID(z: 15, x: 9556, y: 12318))
    let numbers = try #require(street.layer(named: "housenumber"))
    #expect(numbers.features.count > 10)
    #expect(
      numbers.features.allSatisfy { Int(numbers.value(of: $0, forKey: "housenumber")?.description ?? "") != nil })
  }

  @Test func roadsContinueAcrossTileEdges() throws {
    // A vertical street leaving the bottom of one tile enters the top of the tile below.
    let city = DemoCitySource()
    let upper = city.makeTile(TileID(z: 14, x: 8529, y: 5974))
    let lower = city.makeTile(TileID(z: 14, x: 8529, y: 5975))
    func verticalXs(_ tile: VectorTile, nearY: Int32) throws -> Set<Int32> {
      let roads = try #require(tile.layer(named: "transportation"))
      var xs = Set<Int32>()
      for feature in roads.features {
        for part in feature.geometry where part.count >= 2 && part.first!.x == part.last!.x {
          if part.contains(where: { abs($0.y - nearY) <= 64 }) { xs.insert(part[0].x) }
        }
      }
      return xs
    }
    let leaving = try verticalXs(upper, nearY: 4096)
    let entering = try verticalXs(lower, nearY: 0)
    #expect(!leaving.isEmpty)
    #expect(leaving == entering)
  }

  @Test func lowZoomTilesStayLight() {
    let city = DemoCitySource()
    for zoom in [0, 3, 6, 9, 12] {
      let tile = city.makeTile(TileID(z: 14, x: 8529, y: 5974).ancestor(atZoom: zoom))
      let features = tile.layers.reduce(0) { $0 + $1.features.count }
      #expect(features < 5000, "zoom \(zoom): \(features) features")
      #expect(tile.layer(named: "building") == nil, "no buildings below zoom 13")
    }
  }
}
