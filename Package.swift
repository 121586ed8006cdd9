// swift-tools-version:6.2
// Tessera: a headless map renderer (EGL + OpenGL ES 3) for Linux servers.
//
// Module graph: every module and what it depends on; nothing depends upwards
// (docs/ARCHITECTURE.md walks through it).
//
//   Tools/tessera        ─▶ TesseraCLI
//   Tools/tessera-fuzz   ─▶ TesseraService (request readers), Tessera (scenes), TesseraData, TesseraText,
//                           TesseraStyle, TesseraImage, TesseraJSON, TesseraGeo
//   TesseraCLI           ─▶ TesseraService, TesseraConformance, Tessera, TesseraRender, TesseraGL, TesseraData, …
//   TesseraService       ─▶ Tessera, CCrypto, CTesseraServer ─▶ CMicroHTTPD (`tessera serve`: the HTTP render service)
//   TesseraConformance   ─▶ Tessera (MapLibre's render tests; not in the library product)
//   TesseraTesting       ─▶ Tessera, TesseraText (snapshot tests for users' suites: the TesseraTesting product)
//   Tessera              ─▶ TesseraRender, TesseraStyle, TesseraData, TesseraGL, TesseraImage, TesseraJSON,
//                           TesseraGeo (the library product: Map, Scene, markers, RenderPool)
//   TesseraRender        ─▶ TesseraGL, TesseraShaders, TesseraStyle, TesseraText, TesseraData, TesseraImage,
//                           TesseraGeo
//   TesseraText          ─▶ TesseraData, TesseraImage, CFreeType, CHarfBuzz, CFriBidi (fonts, shaping, glyphs)
//   TesseraGL            ─▶ CEGL, CGLES3, CGBM, TesseraShaders (Shaders/), TesseraImage
//   TesseraStyle         ─▶ TesseraJSON, TesseraImage, TesseraGeo
//   TesseraData          ─▶ TesseraJSON, TesseraImage, TesseraGeo, CSQLite, CZlib, CTesseraHTTP ─▶ CCurl
//   TesseraImage         ─▶ CTesseraCodecs ─▶ CPNG, CJPEG, CGif; CWebP, CZlib
//   TesseraJSON, TesseraGeo         ─▶ TesseraNumbers
//   TesseraNumbers, TesseraShaders: pure Swift, no dependencies (TesseraNumbers: the checked
//                           conversions of floating-point numbers to integers every module uses,
//                           FNV-1a, a lock whose waiters sleep, and the private folders and
//                           byte files caches use)
//
// Only TesseraGL imports EGL/GLES. C libraries come from Debian packages through pkg-config
// (giflib, which has no pkg-config file, by name).
// `import Tessera` re-exports only the types its public API uses (Sources/Tessera/Exports.swift);
// what the modules share among themselves is `package`, out of a user's sight.
import PackageDescription

/// Every Swift target: an unchecked floating-point to integer conversion (`Int(someDouble)`, which
/// traps on NaN, infinity or a value out of range) is a compile error; see TesseraNumbers.
let checkedNumbers: [SwiftSetting] = [.treatWarning("DeprecatedDeclaration", as: .error)]

/// A Debian-provided C library wrapped as a SwiftPM system library target.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
  .systemLibrary(
    name: name, path: "Sources/CSystem/\(name)", pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
  name: "Tessera",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "Tessera", targets: ["Tessera"]),
    .library(name: "TesseraTesting", targets: ["TesseraTesting"]),
    .executable(name: "tessera", targets: ["tessera"]),
  ],
  targets: [
    // C system libraries (Debian packages).
    systemLibrary("CEGL", pkgConfig: "egl", apt: ["libegl-dev", "libegl-mesa0"]),
    systemLibrary("CGLES3", pkgConfig: "glesv2", apt: ["libgles-dev", "libgl1-mesa-dri"]),
    systemLibrary("CGBM", pkgConfig: "gbm", apt: ["libgbm-dev"]),
    systemLibrary("CPNG", pkgConfig: "libpng", apt: ["libpng-dev"]),
    systemLibrary("CJPEG", pkgConfig: "libjpeg", apt: ["libjpeg62-turbo-dev"]),
    systemLibrary("CWebP", pkgConfig: "libwebp", apt: ["libwebp-dev"]),
    // giflib ships no pkg-config file: the module map links it by name.
    .systemLibrary(name: "CGif", path: "Sources/CSystem/CGif", providers: [.apt(["libgif-dev"])]),
    systemLibrary("CZlib", pkgConfig: "zlib", apt: ["zlib1g-dev"]),
    systemLibrary("CSQLite", pkgConfig: "sqlite3", apt: ["libsqlite3-dev"]),
    // libcurl and libmicrohttpd are loaded with dlopen when first used (CTesseraHTTP,
    // CTesseraServer), not linked: their headers only, so no pkg-config link flags.
    .systemLibrary(name: "CCurl", path: "Sources/CSystem/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    systemLibrary("CFreeType", pkgConfig: "freetype2", apt: ["libfreetype-dev"]),
    systemLibrary("CHarfBuzz", pkgConfig: "harfbuzz", apt: ["libharfbuzz-dev"]),
    systemLibrary("CFriBidi", pkgConfig: "fribidi", apt: ["libfribidi-dev"]),
    .systemLibrary(name: "CMicroHTTPD", path: "Sources/CSystem/CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
    systemLibrary("CCrypto", pkgConfig: "libcrypto", apt: ["libssl-dev"]),
    // libpng and libjpeg report errors with longjmp, which Swift cannot catch: these few C
    // functions hold the setjmp points and turn failures into error strings. The fast PNG
    // encoder's deflate compressor (png_deflate.c) lives here too.
    .target(
      name: "CTesseraCodecs", dependencies: ["CPNG", "CJPEG", "CGif"], path: "Sources/CSystem/CTesseraCodecs",
      linkerSettings: [.linkedLibrary("gif")]),
    // curl_easy_setopt is variadic, which Swift cannot call: one C function does a whole GET.
    .target(name: "CTesseraHTTP", dependencies: ["CCurl"], path: "Sources/CSystem/CTesseraHTTP"),
    // MHD_start_daemon is variadic and answering from a render thread needs suspend/resume:
    // a small C server layer holds both.
    .target(name: "CTesseraServer", dependencies: ["CMicroHTTPD"], path: "Sources/CSystem/CTesseraServer"),

    // Swift modules, lowest first.
    .target(name: "TesseraNumbers"),
    .target(name: "TesseraGeo"),
    .target(name: "TesseraJSON"),
    .target(
      name: "TesseraData",
      dependencies: ["TesseraGeo", "TesseraJSON", "TesseraImage", "CSQLite", "CZlib", "CTesseraHTTP"]),
    .target(
      name: "TesseraImage", dependencies: ["CTesseraCodecs", "CWebP", "CZlib"]),
    .target(name: "TesseraStyle", dependencies: ["TesseraGeo", "TesseraJSON", "TesseraImage"]),
    .target(name: "TesseraText", dependencies: ["TesseraData", "TesseraImage", "CFreeType", "CHarfBuzz", "CFriBidi"]),
    .target(
      name: "TesseraShaders", path: "Shaders",
      resources: [.embedInCode("programs")]),
    .target(
      name: "TesseraGL",
      dependencies: ["CEGL", "CGLES3", "CGBM", "TesseraImage", "TesseraShaders"]),
    .target(
      name: "TesseraRender",
      dependencies: [
        "TesseraGeo", "TesseraGL", "TesseraImage", "TesseraJSON", "TesseraShaders", "TesseraStyle", "TesseraData",
        "TesseraText",
      ]),
    .target(
      name: "Tessera",
      dependencies: [
        "TesseraGeo", "TesseraImage", "TesseraJSON", "TesseraData", "TesseraStyle", "TesseraRender", "TesseraGL",
        "TesseraText",
      ]),
    .target(name: "TesseraTesting", dependencies: ["Tessera", "TesseraImage", "TesseraJSON", "TesseraText"]),
    .target(
      name: "TesseraConformance",
      dependencies: [
        "Tessera", "TesseraGeo", "TesseraImage", "TesseraJSON", "TesseraStyle", "TesseraGL", "TesseraRender",
      ]),
    .target(
      name: "TesseraService",
      dependencies: [
        "Tessera", "TesseraGeo", "TesseraImage", "TesseraJSON", "TesseraGL", "TesseraData", "CTesseraServer",
        "CCrypto",
      ]),
    .target(
      name: "TesseraCLI",
      dependencies: [
        "Tessera", "TesseraConformance", "TesseraService", "TesseraGeo", "TesseraImage", "TesseraJSON", "TesseraGL",
        "TesseraData", "TesseraRender",
      ]),
    .executableTarget(name: "tessera", dependencies: ["TesseraCLI"], path: "Tools/tessera"),
    .executableTarget(
      name: "tessera-fuzz",
      dependencies: [
        "Tessera", "TesseraData", "TesseraImage", "TesseraJSON", "TesseraGeo", "TesseraStyle", "TesseraText",
        "TesseraService", "TesseraRender",
      ],
      path: "Tools/tessera-fuzz"),

    // Tests.
    .target(
      name: "TesseraTestSupport", dependencies: ["Tessera", "TesseraImage", "TesseraGL", "TesseraTesting"],
      path: "Tests/TesseraTestSupport"),
    .testTarget(name: "TesseraGeoTests", dependencies: ["TesseraGeo", "TesseraTestSupport"]),
    .testTarget(name: "TesseraJSONTests", dependencies: ["TesseraJSON"]),
    .testTarget(name: "TesseraNumbersTests", dependencies: ["TesseraNumbers", "TesseraTestSupport"]),
    .testTarget(name: "TesseraTestingTests", dependencies: ["TesseraTesting", "TesseraGL", "TesseraTestSupport"]),
    .testTarget(
      name: "TesseraTextTests", dependencies: ["TesseraText", "TesseraData", "TesseraNumbers", "TesseraTestSupport"]),
    .testTarget(name: "TesseraStyleTests", dependencies: ["TesseraStyle", "TesseraTestSupport"]),
    .testTarget(
      name: "TesseraDataTests", dependencies: ["TesseraData", "Tessera", "TesseraTestSupport"],
      exclude: ["Support/tile_server.py"]
    ),
    .testTarget(name: "TesseraImageTests", dependencies: ["TesseraImage", "TesseraTestSupport"]),
    .testTarget(name: "TesseraGLTests", dependencies: ["CGLES3", "TesseraGL", "TesseraShaders", "TesseraTestSupport"]),
    .testTarget(
      name: "TesseraRenderTests",
      dependencies: [
        "Tessera", "TesseraRender", "TesseraConformance", "TesseraTestSupport", "TesseraData", "TesseraGeo",
        "TesseraGL", "TesseraImage", "TesseraJSON", "TesseraStyle",
      ],
      exclude: [
        "Cases", "Support/make_fixture_tiles.py", "Support/make_marker_icons.py", "Support/make_pattern_sprite.py",
        "Support/make_label_sprite.py", "Support/make_image_source_picture.py", "Support/make_overlay_stamp.py",
        "Support/make_traffic_lines.py", "Support/make_google_style_cases.py", "Support/make_indoor_venue.py",
      ]),
    .testTarget(name: "TesseraCLITests", dependencies: ["TesseraCLI", "TesseraTestSupport", "CSQLite"]),
    .testTarget(
      name: "TesseraServiceTests", dependencies: ["TesseraService", "Tessera", "TesseraTestSupport", "TesseraData"]),
    // Only the library product, as a user's package sees it.
    .testTarget(name: "TesseraLibraryTests", dependencies: ["Tessera"]),
    // The docs against the code: README.md's and docs/' Swift blocks built in a package of their
    // own, docs/ARCHITECTURE.md's module list against these targets (reads files; no dependencies).
    .testTarget(name: "TesseraDocsTests", exclude: ["PublicAPI.txt"]),
  ],
  swiftLanguageModes: [.v6]
)

// Every Swift target builds with the checked-number rule; product code imports TesseraNumbers in
// every file (a test checks), which is what brings its shadowing conversions into scope.
for target in package.targets where target.type != .system && !target.name.hasPrefix("C") {
  target.swiftSettings = (target.swiftSettings ?? []) + checkedNumbers
  if target.type != .test && target.name != "TesseraNumbers" {
    target.dependencies.append("TesseraNumbers")
  }
}
