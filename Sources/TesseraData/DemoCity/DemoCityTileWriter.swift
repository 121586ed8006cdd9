import Foundation
import TesseraGeo
import TesseraNumbers

/// Writes the features of one demo-city tile, layer by layer, by zoom:
/// motorways from z5, trunks z7, primaries z9, secondaries z11, tertiaries z12, minor streets
/// z13; lakes from z9; district land use z9–12, block land use, parks and ponds from z13;
/// downtown towers z13, all buildings from z14; city and town names from z8, districts z11,
/// major roads' names and route numbers z10, other street names z13, POIs and house numbers z14.
/// Names carry translations (``DemoCityTranslations``).
struct DemoCityTileWriter {
  let layout: DemoCityLayout
  let frame: DemoCityTileFrame
  var water = VectorTileLayerBuilder(name: "water")
  var waterName = VectorTileLayerBuilder(name: "water_name")
  var landuse = VectorTileLayerBuilder(name: "landuse")
  var landcover = VectorTileLayerBuilder(name: "landcover")
  var park = VectorTileLayerBuilder(name: "park")
  var transportation = VectorTileLayerBuilder(name: "transportation")
  var transportationName = VectorTileLayerBuilder(name: "transportation_name")
  var building = VectorTileLayerBuilder(name: "building")
  var place = VectorTileLayerBuilder(name: "place")
  var poi = VectorTileLayerBuilder(name: "poi")
  var housenumber = VectorTileLayerBuilder(name: "housenumber")

  init(layout: DemoCityLayout, tile: TileID) {
    self.layout = layout
    frame = DemoCityTileFrame(tile)
  }

  static let block = DemoCityLayout.blockSize
  static let margin = DemoCityLayout.streetMargin

  mutating func writeAll() {
    let z = frame.z
    if z >= 9 { writeDistricts() }
    if z >= 13 { writeBlocks() }
    if z >= 5 { writeRoads() }
    if z >= 8 { writePlaces() }
  }

  func finish() -> VectorTile {
    VectorTile(
      layers: [
        water, landcover, landuse, park, transportation, building, waterName, transportationName, place, poi,
        housenumber,
      ]
      .filter { !$0.isEmpty }.map { $0.build() })
  }

  /// Index ranges of cells of `cell` units overlapping the tile and its buffer.
  func cells(_ cell: Double) -> (ClosedRange<Int>, ClosedRange<Int>) {
    let bounds = frame.bounds
    return (
      Int(clamping: floor(bounds.minX / cell))...Int(clamping: floor(bounds.maxX / cell)),
      Int(clamping: floor(bounds.minY / cell))...Int(clamping: floor(bounds.maxY / cell))
    )
  }

  mutating func writeDistricts() {
    let span = Double(DemoCityLayout.blocksPerDistrict) * DemoCityTileWriter.block
    let (columns, rows) = cells(span)
    for dy in rows {
      for dx in columns {
        let kind = layout.district(dx, dy)
        if kind == .lake {
          let lake = layout.lake(dx, dy)
          let outline = (0...32).map { step -> (Double, Double) in
            let angle = Double(step % 32) / 32 * 2 * .pi
            return (lake.cx + cos(angle) * lake.rx, lake.cy + sin(angle) * lake.ry)
          }
          if let ring = frame.ring(outline) {
            water.add(
              type: .polygon, geometry: [ring], properties: ["class": .string("lake")], id: layout.hash(dx, dy, 20))
          }
          if frame.z >= 13, let point = frame.point(lake.cx, lake.cy) {
            let district = DemoCityNames.districts[
              Int(layout.hash(dx, dy, 21) % UInt64(DemoCityNames.districts.count))]
            waterName.add(
              type: .point, geometry: [[point]],
              attributes: DemoCityTranslations.lake(district).attributes([("class", .string("lake"))]))
          }
        }
        guard frame.z < 13 else { continue }
        let x0 = Double(dx) * span
        let y0 = Double(dy) * span
        guard let ring = frame.rectangle(x0, y0, x0 + span, y0 + span) else { continue }
        switch kind {
        case .parkland:
          park.add(type: .polygon, geometry: [ring], properties: ["class": .string("park")])
        case .downtown, .commercial:
          landuse.add(type: .polygon, geometry: [ring], properties: ["class": .string("commercial")])
        case .industrial:
          landuse.add(type: .polygon, geometry: [ring], properties: ["class": .string("industrial")])
        case .residential, .lake:
          landuse.add(type: .polygon, geometry: [ring], properties: ["class": .string("residential")])
        }
      }
    }
  }

  mutating func writeBlocks() {
    let (columns, rows) = cells(DemoCityTileWriter.block)
    let margin = DemoCityTileWriter.margin
    for by in rows {
      for bx in columns {
        let x0 = Double(bx) * DemoCityTileWriter.block + margin
        let y0 = Double(by) * DemoCityTileWriter.block + margin
        let x1 = x0 + DemoCityTileWriter.block - 2 * margin
        let y1 = y0 + DemoCityTileWriter.block - 2 * margin
        switch layout.block(bx, by) {
        case .water:
          let (dx, dy) = layout.districtOf(block: bx, by)
          guard layout.district(dx, dy) != .lake, let ring = frame.rectangle(x0 + 14, y0 + 14, x1 - 14, y1 - 14) else {
            continue
          }
          water.add(type: .polygon, geometry: [ring], properties: ["class": .string("lake")])
          if let outer = frame.rectangle(x0, y0, x1, y1) {
            park.add(type: .polygon, geometry: [outer], properties: ["class": .string("park")])
          }
        case .park:
          guard let ring = frame.rectangle(x0, y0, x1, y1) else { continue }
          park.add(type: .polygon, geometry: [ring], properties: ["class": .string("park")])
          landcover.add(
            type: .polygon, geometry: [ring], properties: ["class": .string("grass"), "subclass": .string("park")])
          if frame.z >= 14 {
            for piece in frame.line([(x0 + 6, y0 + 6), (x1 - 6, y1 - 6)]) {
              transportation.add(type: .lineString, geometry: [piece], properties: ["class": .string("path")])
            }
          }
        case .plaza:
          guard let ring = frame.rectangle(x0, y0, x1, y1) else { continue }
          landuse.add(type: .polygon, geometry: [ring], properties: ["class": .string("retail")])
        case .buildings(let kind):
          if let ring = frame.rectangle(x0, y0, x1, y1) {
            let landClass =
              kind == .industrial
              ? "industrial" : (kind == .residential || kind == .lake ? "residential" : "commercial")
            landuse.add(type: .polygon, geometry: [ring], properties: ["class": .string(landClass)])
          }
          if frame.z >= 13 { writeBuildings(bx, by, kind: kind, inner: (x0, y0, x1, y1)) }
          if frame.z >= 14 && layout.unit(bx, by, 30) < 0.18 { writePOI(bx, by, inner: (x0, y0, x1, y1)) }
        }
      }
    }
  }

  mutating func writeBuildings(
    _ bx: Int, _ by: Int, kind: DemoCityLayout.DistrictKind, inner: (Double, Double, Double, Double)
  ) {
    let (x0, y0, x1, y1) = inner
    if kind == .downtown && layout.unit(bx, by, 31) < 0.45 {
      let height = (60 + layout.unit(bx, by, 32) * 120).rounded()
      addBuilding(x0 + 8, y0 + 8, x1 - 8, y1 - 8, height: height, base: 0, id: layout.hash(bx, by, 33))
      return
    }
    guard frame.z >= 14 else { return }
    let columns = kind == .industrial ? 1 + Int(layout.hash(bx, by, 34) % 2) : 2 + Int(layout.hash(bx, by, 34) % 3)
    let rows = kind == .industrial ? 1 : 2
    let width = (x1 - x0) / Double(columns)
    let depth = (y1 - y0) / Double(rows)
    for row in 0..<rows {
      for column in 0..<columns {
        let salt = UInt64(40 + row * 8 + column)
        guard layout.unit(bx, by, salt) > 0.08 else { continue }
        let insetA = 2 + layout.unit(bx, by, salt + 100) * 5
        let insetB = 2 + layout.unit(bx, by, salt + 200) * 5
        let lx0 = x0 + Double(column) * width + insetA
        let ly0 = y0 + Double(row) * depth + insetB
        let lx1 = x0 + Double(column + 1) * width - insetB
        let ly1 = y0 + Double(row + 1) * depth - insetA
        let roll = layout.unit(bx, by, salt + 300)
        let height: Double
        switch kind {
        case .downtown: height = 18 + roll * 45
        case .commercial: height = 10 + roll * 25
        case .industrial: height = 7 + roll * 8
        default: height = 6 + (roll * 4).rounded(.down) * 3.2
        }
        addBuilding(lx0, ly0, lx1, ly1, height: height.rounded(), base: 0, id: layout.hash(bx, by, salt + 400))
        // House numbers count along the block's street, odd on one side and even on the other.
        if let point = frame.point((lx0 + lx1) / 2, (ly0 + ly1) / 2) {
          let number = (bx - DemoCityLayout.floorDivide(bx, 64) * 64) * 8 + column * 2 + row + 1
          housenumber.add(type: .point, geometry: [[point]], properties: ["housenumber": .string(String(number))])
        }
      }
    }
  }

  mutating func addBuilding(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, height: Double, base: Double, id: UInt64
  ) {
    guard x1 > x0 + 2, y1 > y0 + 2, let ring = frame.rectangle(x0, y0, x1, y1) else { return }
    building.add(
      type: .polygon, geometry: [ring],
      properties: ["render_height": .number(height), "render_min_height": .number(base)], id: id)
  }

  mutating func writePOI(_ bx: Int, _ by: Int, inner: (Double, Double, Double, Double)) {
    let (x0, y0, x1, y1) = inner
    let x = x0 + (x1 - x0) * (0.2 + 0.6 * layout.unit(bx, by, 35))
    let y = y0 + (y1 - y0) * (0.15 + 0.1 * layout.unit(bx, by, 36))
    guard let point = frame.point(x, y) else { return }
    let kinds = DemoCityNames.pois
    let kind = kinds[Int(layout.hash(bx, by, 37) % UInt64(kinds.count))]
    let name = kind.names[Int(layout.hash(bx, by, 38) % UInt64(kind.names.count))]
    poi.add(
      type: .point, geometry: [[point]],
      properties: [
        "class": .string(kind.poiClass), "subclass": .string(kind.subclass), "name": .string(name),
        "name_en": .string(name),
        "rank": .number(Double(1 + layout.hash(bx, by, 39) % 20)),
      ], id: layout.hash(bx, by, 41))
  }

  mutating func writeRoads() {
    let block = DemoCityTileWriter.block
    let bounds = frame.bounds
    let (columns, rows) = cells(block)
    for vertical in [true, false] {
      let range = vertical ? columns : rows
      for index in range {
        let roadClass = DemoCityLayout.roadClass(index)
        guard frame.z >= DemoCityLayout.minZoom(ofRoadClass: roadClass) else { continue }
        let at = Double(index) * block
        // Split the line where it would run through a lake (both neighbouring blocks water).
        var pieces: [[(Double, Double)]] = []
        if frame.z >= 12 {
          var current: [(Double, Double)] = []
          for cell in (vertical ? rows : columns) {
            let a = vertical ? layout.block(index - 1, cell) : layout.block(cell, index - 1)
            let b = vertical ? layout.block(index, cell) : layout.block(cell, index)
            let start = Double(cell) * block
            if a == .water && b == .water {
              if current.count >= 2 { pieces.append(current) }
              current = []
            } else {
              if current.isEmpty { current.append(vertical ? (at, start) : (start, at)) }
              current.append(vertical ? (at, start + block) : (start + block, at))
            }
          }
          if current.count >= 2 { pieces.append(current) }
        } else {
          pieces = [vertical ? [(at, bounds.minY), (at, bounds.maxY)] : [(bounds.minX, at), (bounds.maxX, at)]]
        }
        for piece in pieces {
          for clipped in frame.line(piece) {
            transportation.add(
              type: .lineString, geometry: [clipped],
              properties: ["class": .string(roadClass), "oneway": .number(roadClass == "motorway" ? 1 : 0)])
            if frame.z >= 13 || (frame.z >= 10 && ["motorway", "trunk", "primary"].contains(roadClass)) {
              let name = layout.streetName(index, vertical: vertical)
              transportationName.add(
                type: .lineString, geometry: [clipped],
                attributes: name.attributes(
                  [("class", .string(roadClass))] + roadReference(index, vertical: vertical, roadClass: roadClass)))
            }
          }
        }
      }
    }
  }

  /// The route number of a motorway ("M4"), trunk ("A12") or primary road ("B7") with its
  /// `ref_length`; nothing for smaller roads.
  func roadReference(_ index: Int, vertical: Bool, roadClass: String) -> [(String, FeatureValue)] {
    let prefix: String
    switch roadClass {
    case "motorway": prefix = "M"
    case "trunk": prefix = "A"
    case "primary": prefix = "B"
    default: return []
    }
    let number = 1 + Int(layout.hash(index, vertical ? 1 : 0, 11) % (roadClass == "primary" ? 99 : 20))
    let reference = "\(prefix)\(number)"
    return [("ref", .string(reference)), ("ref_length", .number(Double(reference.count)))]
  }

  mutating func writePlaces() {
    let districtSpan = Double(DemoCityLayout.blocksPerDistrict) * DemoCityTileWriter.block
    let regionSpan = districtSpan * Double(DemoCityLayout.districtsPerRegion)
    let (regionColumns, regionRows) = cells(regionSpan)
    for ry in regionRows {
      for rx in regionColumns {
        // The city centre: the middle of the region's downtown district.
        let x = (Double(rx) * Double(DemoCityLayout.districtsPerRegion) + 1.5) * districtSpan
        let y = (Double(ry) * Double(DemoCityLayout.districtsPerRegion) + 1.5) * districtSpan
        guard let point = frame.point(x, y) else { continue }
        let name = DemoCityNames.cities[Int(layout.hash(rx, ry, 50) % UInt64(DemoCityNames.cities.count))]
        // One region in 4 × 4 is a city; the others are towns around it.
        let isCity = rx % 4 == 0 && ry % 4 == 0
        place.add(
          type: .point, geometry: [[point]],
          attributes: DemoCityTranslations.city(name).attributes([
            ("class", .string(isCity ? "city" : "town")), ("rank", .number(isCity ? 4 : 8)),
            ("capital", .number(rx == 0 && ry == 0 ? 2 : 0)),
          ]))
      }
    }
    guard frame.z >= 11 else { return }
    let (columns, rows) = cells(districtSpan)
    for dy in rows {
      for dx in columns {
        guard let point = frame.point((Double(dx) + 0.5) * districtSpan, (Double(dy) + 0.5) * districtSpan) else {
          continue
        }
        let name = DemoCityNames.districts[Int(layout.hash(dx, dy, 51) % UInt64(DemoCityNames.districts.count))]
        place.add(
          type: .point, geometry: [[point]],
          attributes: DemoCityTranslations.district(name).attributes([
            ("class", .string("suburb")), ("rank", .number(12)),
          ]))
      }
    }
  }
}
