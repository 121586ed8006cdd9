import Foundation
import TesseraJSON
import TesseraService
import TesseraTestSupport
import Testing

/// A tileserver-gl `config.json` read as it is: its folders, styles, data and options mapped
/// onto the service's configuration, warnings for what Tessera does not use, errors for bad
/// values.
@Suite struct TileserverGLConfigTests {
  /// A fresh folder for one test's files.
  static func folder() throws -> String {
    let folder = NSTemporaryDirectory() + "tessera-tileserver-gl-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// Writes `text` to `path`, making its folder.
  static func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  /// The style document a configuration serves as `id`.
  static func servedStyle(_ configuration: ServiceConfiguration, _ id: String) throws -> JSONValue? {
    guard case .file(let path, _)? = configuration.styles[id] else { return nil }
    return try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
  }

  @Test func foldersResolveAgainstRootAndRootAgainstTheConfigFolder() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write(
      ##"{"options": {"paths": {"root": "maps", "fonts": "fonts", "mbtiles": "/srv/tiles", "icons": "pins"}}}"##,
      to: folder + "/config.json")
    var warnings: [String] = []
    let cursor = JSONCursor(
      root: try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/config.json")))),
      source: "config.json")
    let paths = try TileserverGLPaths(cursor["options"]["paths"], configFolder: folder, warnings: &warnings)
    let root = URL(fileURLWithPath: folder + "/maps").standardizedFileURL.path
    #expect(paths.root == root)
    #expect(paths.fonts == root + "/fonts")
    #expect(paths.mbtiles == "/srv/tiles")
    #expect(paths.sprites == root && paths.styles == root && paths.pmtiles == root)
    #expect(paths.icons == root + "/pins" && paths.files == nil)
    #expect(warnings.isEmpty)
    // The icons folder is the service's marker icon folder.
    let configuration = try ServiceConfiguration(file: folder + "/config.json")
    #expect(configuration.iconFolder == root + "/pins")
  }

  @Test func dataURLsGlyphsAndSpritesResolveUnderTheirFolders() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write(
      ##"""
      {"version": 8, "sprite": "{style}-icons", "glyphs": "{fontstack}/{range}.pbf",
       "sources": {"v3": {"type": "vector", "url": "mbtiles://{v3}"},
                   "relief": {"type": "raster-dem", "url": "pmtiles://relief"},
                   "byName": {"type": "vector", "url": "mbtiles://{zurich.mbtiles}"},
                   "remote": {"type": "vector", "url": "https://tiles.example.org/tiles.json"}},
       "layers": []}
      """##, to: folder + "/styles/basic.json")
    try Self.write(
      ##"""
      {"options": {"paths": {"fonts": "fonts", "sprites": "sprites", "styles": "styles", "mbtiles": "data",
                             "pmtiles": "archives"}},
       "styles": {"basic": {"style": "basic.json"}, "hidden": {"style": "basic.json", "serve_rendered": false}},
       "data": {"v3": {"mbtiles": "zurich.mbtiles"}, "relief": {"pmtiles": "relief.pmtiles"}}}
      """##, to: folder + "/config.json")
    try Self.write("", to: folder + "/data/zurich.mbtiles")
    try Self.write("", to: folder + "/archives/relief.pmtiles")
    let configuration = try ServiceConfiguration(file: folder + "/config.json")
    let root = URL(fileURLWithPath: folder).standardizedFileURL.path
    let style = try #require(try Self.servedStyle(configuration, "basic"))
    #expect(style["sources"]?["v3"]?["url"]?.string == "mbtiles://\(root)/data/zurich.mbtiles")
    #expect(style["sources"]?["relief"]?["url"]?.string == "pmtiles://\(root)/archives/relief.pmtiles")
    #expect(style["sources"]?["byName"]?["url"]?.string == "mbtiles://\(root)/data/zurich.mbtiles")
    #expect(style["sources"]?["remote"]?["url"]?.string == "https://tiles.example.org/tiles.json")
    #expect(style["glyphs"]?.string == "file://\(root)/fonts/{fontstack}/{range}.pbf")
    #expect(style["sprite"]?.string == "file://\(root)/sprites/basic-icons")
    #expect(configuration.styles["hidden"] == nil)
    // The built-in map types stay served beside the config's styles.
    #expect(configuration.styles["normal"] != nil)
  }

  @Test func aSourceNamingUndeclaredDataIsAnError() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write(
      ##"{"version": 8, "sources": {"v3": {"type": "vector", "url": "mbtiles://{missing}"}}, "layers": []}"##,
      to: folder + "/basic.json")
    try Self.write(
      ##"{"options": {}, "styles": {"basic": {"style": "basic.json"}}, "data": {}}"##, to: folder + "/config.json")
    let error = #expect(throws: ConfigurationError.self) { try ServiceConfiguration(file: folder + "/config.json") }
    #expect(error?.source == folder + "/config.json")
    #expect(error?.reason.contains("styles.basic") == true && error?.reason.contains("'missing'") == true)
  }

  @Test func everyUnusedOptionIsWarnedOfOnce() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write(##"{"version": 8, "sources": {}, "layers": []}"##, to: folder + "/basic.json")
    try Self.write(
      ##"""
      {"options": {"paths": {"files": "files"}, "domains": ["localhost:8080"], "formatQuality": {"jpeg": 80},
                   "formatOptions": {"webp": {"quality": 90}}, "serveAllFonts": true, "pbfAlias": "pbf.pict",
                   "tileMargin": 0, "watermark": "draft", "maxScaleFactor": 9, "maxSize": 2048,
                   "allowedHosts": "localhost,maps.example.org", "somethingNew": 1},
       "styles": {"basic": {"style": "basic.json", "tilejson": {"format": "webp"}, "serve_data": true}},
       "data": {"v3": {"mbtiles": "v3.mbtiles", "encoding": "mapbox"}}}
      """##, to: folder + "/config.json")
    try Self.write("", to: folder + "/v3.mbtiles")
    let configuration = try ServiceConfiguration(file: folder + "/config.json")
    for field in [
      "options.paths.files", "options.formatQuality", "options.formatOptions", "options.serveAllFonts",
      "options.tileMargin", "options.watermark", "options.maxScaleFactor", "options.somethingNew",
      "styles.basic.serve_data",
    ] {
      let naming = configuration.warnings.filter { $0.hasPrefix(field + ":") }
      #expect(naming.count == 1, "\(field): \(naming)")
    }
    #expect(configuration.warnings.count == 9, "\(configuration.warnings)")
    // The options with an equivalent set it.
    #expect(configuration.tileDomains == ["localhost:8080"])
    #expect(configuration.pbfAlias == "pbf.pict")
    #expect(configuration.styleTileJSON["basic"]?["format"] == "webp")
    #expect(configuration.dataSets["v3"]?.encoding == .mapbox)
    #expect(configuration.maxScale == 4)
    #expect(configuration.maxWidth == 2048 && configuration.maxHeight == 2048)
    #expect(configuration.allowedHosts == ["localhost", "maps.example.org"])
  }

  @Test func badFieldsAreErrorsNamingTheFileAndField() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/config.json"
    try Self.write("", to: folder + "/v3.mbtiles")
    for (text, field, expected) in [
      (##"{"options": {"maxScaleFactor": "3"}}"##, "options.maxScaleFactor", "number"),
      (##"{"options": {"maxScaleFactor": 12}}"##, "options.maxScaleFactor", "9"),
      (##"{"options": {"maxSize": 0}}"##, "options.maxSize", "8192"),
      (##"{"options": {"paths": {"fonts": 5}}}"##, "options.paths.fonts", "string"),
      (##"{"options": {"serveAllStyles": "yes"}}"##, "options.serveAllStyles", "true or false"),
      (##"{"options": {"domains": "localhost"}}"##, "options.domains", "array"),
      (##"{"options": {"domains": ["http://a.example/x"]}}"##, "options.domains[0]", "host name"),
      (##"{"options": {"pbfAlias": "../x"}}"##, "options.pbfAlias", "file extension"),
      (##"{"options": {"frontPage": 3}}"##, "options.frontPage", "true, false"),
      (##"{"options": {"serveStaticMaps": "no"}}"##, "options.serveStaticMaps", "true or false"),
      (
        ##"{"options": {}, "styles": {"basic": {"style": "basic.json", "tilejson": {"bounds": [1, 2]}}}}"##,
        "styles.basic.tilejson.bounds", "[west, south, east, north]"
      ),
      (##"{"data": {"v3": {"mbtiles": "v3.mbtiles", "encoding": "rgb"}}}"##, "data.v3.encoding", "terrarium"),
      (##"{"data": {"v3": {"mbtiles": "v3.mbtiles", "tilejson": []}}}"##, "data.v3.tilejson", "object"),
      (##"{"options": {}, "styles": {"basic": {}}}"##, "styles.basic.style", "string"),
      (##"{"options": {}, "styles": {"basic": {"style": "absent.json"}}}"##, "styles.basic.style", "style file"),
      (##"{"options": {}, "styles": {"basic": "basic.json"}}"##, "styles.basic", "object"),
      (##"{"data": {"v3": {"tiles": "v3.mbtiles"}}}"##, "data.v3", "'mbtiles' or 'pmtiles'"),
      (##"{"data": {"v3": {"mbtiles": 3}}}"##, "data.v3.mbtiles", "string"),
      (##"{"data": []}"##, "data", "object"),
      (##"{"data": {"v3": {"mbtiles": "absent.mbtiles"}}}"##, "data.v3.mbtiles", "a file under"),
      (##"{"data": {"v3": {"mbtiles": "a.mbtiles", "pmtiles": "a.pmtiles"}}}"##, "data.v3", "not both"),
    ] {
      try Self.write(text, to: file)
      let error = #expect(throws: JSONFieldError.self, "\(text)") { try ServiceConfiguration(file: file) }
      #expect(error?.source == file, "\(text)")
      #expect(error?.path == field, "\(text): \(error.map(String.init(describing:)) ?? "")")
      #expect(
        error?.expected.lowercased().contains(expected.lowercased()) == true, "\(text): \(String(describing: error))")
    }
  }

  @Test func tesseraConfigsAreReadAsBefore() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write(##"{"version": 8, "sources": {}, "layers": []}"##, to: folder + "/basic.json")
    try Self.write(##"{"styles": {"basic": "basic.json"}, "workers": 2}"##, to: folder + "/serve.json")
    let configuration = try ServiceConfiguration(file: folder + "/serve.json")
    #expect(configuration.workers == 2 && configuration.warnings.isEmpty)
    let root = URL(fileURLWithPath: folder).standardizedFileURL.path
    #expect(configuration.styles["basic"] == .file(path: root + "/basic.json", dataRoot: root))
  }
}

/// The settings that add or drop styles.
extension TileserverGLConfigTests {
  @Test func serveAllStylesAddsTheStylesFolderAndRemoteStylesAreSkipped() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for name in ["basic", "bright", "not a style id"] {
      try Self.write(##"{"version": 8, "sources": {}, "layers": []}"##, to: folder + "/styles/\(name).json")
    }
    try Self.write(
      ##"""
      {"options": {"paths": {"styles": "styles"}, "serveAllStyles": true},
       "styles": {"main": {"style": "basic.json"}, "remote": {"style": "https://demotiles.maplibre.org/style.json"}}}
      """##, to: folder + "/config.json")
    let configuration = try ServiceConfiguration(file: folder + "/config.json")
    #expect(configuration.styles["main"] != nil && configuration.styles["bright"] != nil)
    #expect(configuration.styles["basic"] != nil)
    #expect(configuration.styles["remote"] == nil && configuration.styles["not a style id"] == nil)
    #expect(configuration.warnings.filter { $0.hasPrefix("options.serveAllStyles:") }.count == 1)
    #expect(configuration.warnings.filter { $0.hasPrefix("styles.remote.style:") }.count == 1)
    #expect(configuration.warnings.filter { $0.contains("not a style id.json") }.count == 1)
    #expect(configuration.warnings.count == 3, "\(configuration.warnings)")
  }

  @Test func resolvedStylesAreWrittenWhereOnlyThisProcessCanReachThem() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write(##"{"version": 8, "sources": {}, "layers": []}"##, to: folder + "/styles/basic.json")
    try Self.write(
      ##"{"options": {"paths": {"styles": "styles"}}, "styles": {"basic": {"style": "basic.json"}}}"##,
      to: folder + "/config.json")
    // A folder made first under the name the resolved styles once had (the process id and a
    // hash of the config's path, both predictable), as another user of /tmp could make it.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in (folder + "/config.json").utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    let planted = NSTemporaryDirectory() + "tessera-tileserver-gl-\(getpid())-\(String(hash, radix: 16))"
    try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: planted) }
    let configuration = try ServiceConfiguration(file: folder + "/config.json")
    guard case .file(let path, _)? = configuration.styles["basic"] else {
      Issue.record("no basic style")
      return
    }
    #expect(!path.hasPrefix(planted))
    #expect(try FileManager.default.contentsOfDirectory(atPath: planted).isEmpty)
    // The style's folder is inside a folder of this process's own, mode 0700, with a name
    // mkdtemp chose, named through the descriptor that holds it open.
    let held = ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
    #expect(held.hasPrefix("/proc/self/fd/"), "\(held)")
    let root = try #require(realpath(held, nil).map { String(cString: $0) })
    let name = (root as NSString).lastPathComponent
    #expect(name.hasPrefix("tessera-\(getpid())-") && name.count == "tessera-\(getpid())-".count + 6, "\(name)")
    var status = stat()
    #expect(lstat(root, &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFDIR && status.st_mode & 0o777 == 0o700 && status.st_uid == getuid())
    #expect(try Self.servedStyle(configuration, "basic")?["version"] == 8)
  }

  @Test func aConfigurationsResolvedStylesLastAsLongAsIt() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write(##"{"version": 8, "sources": {}, "layers": []}"##, to: folder + "/styles/basic.json")
    try Self.write(
      ##"{"options": {"paths": {"styles": "styles"}}, "styles": {"basic": {"style": "basic.json"}}}"##,
      to: folder + "/config.json")
    let prefix = ServiceConfiguration.resolvedStylesPrefix(configFile: folder + "/config.json")
    func styleFile(_ configuration: ServiceConfiguration?) throws -> String {
      guard case .file(let path, _)? = configuration?.styles["basic"] else { throw CocoaError(.fileNoSuchFile) }
      return path
    }
    func folders(beside path: String) throws -> [String] {
      let root = ((path as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
      return try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix(prefix) }
    }
    // Each read writes its own copies, which stay while its configuration (or a copy of it, as
    // requests under way hold) does: a reload never takes the files of the one in force.
    var first: ServiceConfiguration? = try ServiceConfiguration(file: folder + "/config.json")
    let firstPath = try styleFile(first)
    var copy = first
    let second = try ServiceConfiguration(file: folder + "/config.json")
    let secondPath = try styleFile(second)
    #expect(firstPath != secondPath)
    #expect(try folders(beside: secondPath).count == 2)
    first = nil
    #expect(FileManager.default.fileExists(atPath: firstPath), "a copy still holds it")
    copy = nil
    #expect(!FileManager.default.fileExists(atPath: firstPath) && copy == nil)
    // Ten more reads, each released at once: their files go with them.
    for _ in 0..<10 { _ = try styleFile(try ServiceConfiguration(file: folder + "/config.json")) }
    #expect(try folders(beside: secondPath).count == 1)
    // A read that fails (the style is no longer JSON) leaves nothing, and the one in force whole.
    try Self.write("{", to: folder + "/styles/basic.json")
    #expect(throws: (any Error).self) { try ServiceConfiguration(file: folder + "/config.json") }
    #expect(try folders(beside: secondPath).count == 1)
    #expect(try Self.servedStyle(second, "basic")?["version"] == 8)
  }

}
