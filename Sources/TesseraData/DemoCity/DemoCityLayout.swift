import Foundation
import TesseraNumbers

/// The procedural plan of the demo city, in "city units" (world points at zoom 17, about 0.86 m
/// at mid latitudes): a grid of 128-unit blocks separated by streets, grouped into districts of
/// 16 × 16 blocks and regions of 4 × 4 districts. Everything follows from the seed, so any area
/// can be generated tile by tile and neighbouring tiles agree.
struct DemoCityLayout: Sendable {
  /// City units per block (street centre to street centre).
  static let blockSize = 128.0
  static let blocksPerDistrict = 16
  static let districtsPerRegion = 4
  /// Half the street corridor: blocks are inset by this much from the street centre lines.
  static let streetMargin = 10.0

  let seed: UInt64

  enum DistrictKind: Sendable, Equatable {
    case downtown
    case residential
    case commercial
    case industrial
    case parkland
    /// Residential land around a lake.
    case lake
  }

  enum BlockKind: Sendable, Equatable {
    case buildings(DistrictKind)
    case park
    case water
    case plaza
  }

  /// A well-mixed 64-bit hash of the seed, two integers and a salt (SplitMix64 finaliser).
  func hash(_ a: Int, _ b: Int, _ salt: UInt64) -> UInt64 {
    var z = seed ^ (UInt64(bitPattern: Int64(a)) &* 0x9E37_79B9_7F4A_7C15)
    z ^= UInt64(bitPattern: Int64(b)) &* 0xC2B2_AE3D_27D4_EB4F
    z ^= salt &* 0x1656_67B1_9E37_79F9
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in [0, 1) from the hash.
  func unit(_ a: Int, _ b: Int, _ salt: UInt64) -> Double {
    Double(hash(a, b, salt) >> 11) / Double(1 << 53)
  }

  static func floorDivide(_ a: Int, _ b: Int) -> Int {
    a >= 0 ? a / b : -((-a - 1) / b) - 1
  }

  /// The kind of district (dx, dy): the centre of each region is downtown, its ring commercial
  /// or residential, the rest a seeded mix.
  func district(_ dx: Int, _ dy: Int) -> DistrictKind {
    let size = DemoCityLayout.districtsPerRegion
    let lx = dx - DemoCityLayout.floorDivide(dx, size) * size
    let ly = dy - DemoCityLayout.floorDivide(dy, size) * size
    if lx == 1 && ly == 1 { return .downtown }
    let roll = unit(dx, dy, 1)
    if (lx == 2 || ly == 2) && lx <= 2 && ly <= 2 { return roll < 0.6 ? .commercial : .residential }
    switch roll {
    case ..<0.45: return .residential
    case ..<0.6: return .commercial
    case ..<0.72: return .industrial
    case ..<0.86: return .parkland
    default: return .lake
    }
  }

  /// The lake of a lake district: centre and radii in city units.
  func lake(_ dx: Int, _ dy: Int) -> (cx: Double, cy: Double, rx: Double, ry: Double) {
    let span = Double(DemoCityLayout.blocksPerDistrict) * DemoCityLayout.blockSize
    let cx = (Double(dx) + 0.5 + (unit(dx, dy, 2) - 0.5) * 0.2) * span
    let cy = (Double(dy) + 0.5 + (unit(dx, dy, 3) - 0.5) * 0.2) * span
    return (cx, cy, span * (0.25 + unit(dx, dy, 4) * 0.12), span * (0.2 + unit(dx, dy, 5) * 0.12))
  }

  /// The district holding block (bx, by).
  func districtOf(block bx: Int, _ by: Int) -> (Int, Int) {
    (
      DemoCityLayout.floorDivide(bx, DemoCityLayout.blocksPerDistrict),
      DemoCityLayout.floorDivide(by, DemoCityLayout.blocksPerDistrict)
    )
  }

  /// What block (bx, by) holds.
  func block(_ bx: Int, _ by: Int) -> BlockKind {
    let (dx, dy) = districtOf(block: bx, by)
    let kind = district(dx, dy)
    switch kind {
    case .lake:
      let lake = lake(dx, dy)
      let x = (Double(bx) + 0.5) * DemoCityLayout.blockSize
      let y = (Double(by) + 0.5) * DemoCityLayout.blockSize
      let distance = pow((x - lake.cx) / lake.rx, 2) + pow((y - lake.cy) / lake.ry, 2)
      if distance < 1.25 { return .water }
      if distance < 1.9 { return .park }
      return .buildings(.residential)
    case .parkland:
      return unit(bx, by, 6) < 0.08 ? .water : .park
    default:
      let roll = unit(bx, by, 7)
      if roll < 0.07 { return .park }
      if roll < 0.09 && kind != .industrial { return .plaza }
      return .buildings(kind)
    }
  }

  /// The OpenMapTiles class of grid line `index` (streets every block; trunks, primaries and
  /// secondaries at wider spacing; a motorway every 64 blocks).
  static func roadClass(_ index: Int) -> String {
    if index % 64 == 0 { return "motorway" }
    if index % 32 == 0 { return "trunk" }
    if index % 8 == 0 { return "primary" }
    if index % 4 == 0 { return "secondary" }
    if index % 2 == 0 { return "tertiary" }
    return "minor"
  }

  /// The lowest tile zoom a road class appears at.
  static func minZoom(ofRoadClass roadClass: String) -> Int {
    switch roadClass {
    case "motorway": return 5
    case "trunk": return 7
    case "primary": return 9
    case "secondary": return 11
    case "tertiary": return 12
    default: return 13
    }
  }

  /// The name of grid line `index` running north–south (`vertical`) or east–west.
  func streetName(_ index: Int, vertical: Bool) -> DemoCityName {
    let roadClass = DemoCityLayout.roadClass(index)
    if vertical && index % 4 == 0 && roadClass != "motorway" {
      // Avenues are numbered 1st to 16th across each region of 64 blocks.
      let local = index - DemoCityLayout.floorDivide(index, 64) * 64
      return DemoCityTranslations.avenue(local / 4 + 1)
    }
    if roadClass == "primary" || roadClass == "trunk" {
      let names = DemoCityNames.avenues
      return DemoCityTranslations.boulevard(names[Int(hash(index, vertical ? 1 : 0, 8) % UInt64(names.count))])
    }
    if roadClass == "motorway" { return DemoCityTranslations.ringMotorway }
    let names = DemoCityNames.streets
    let kinds = DemoCityNames.streetKinds
    let base = names[Int(hash(index, vertical ? 1 : 0, 9) % UInt64(names.count))]
    return DemoCityTranslations.street(base, kind: kinds[Int(hash(index, vertical ? 1 : 0, 10) % UInt64(kinds.count))])
  }
}
