// swift-tools-version:6.0
// An app's map scenes and snapshot tests of them with TesseraTesting: copy this folder, point
// the Tessera dependency at your checkout (or a release), record the references, commit them.
import PackageDescription

let package = Package(
  name: "CityMaps",
  products: [.library(name: "CityMaps", targets: ["CityMaps"])],
  dependencies: [.package(name: "Tessera", path: "../..")],
  targets: [
    .target(name: "CityMaps", dependencies: [.product(name: "Tessera", package: "Tessera")]),
    .testTarget(
      name: "CityMapsTests",
      dependencies: ["CityMaps", .product(name: "TesseraTesting", package: "Tessera")],
      exclude: ["__Snapshots__"]),
  ]
)
