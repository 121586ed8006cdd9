import Foundation
import TesseraJSON
import TesseraNumbers

/// The `options` of a tileserver-gl config: those with a Tessera equivalent set it, the others
/// are checked for their type and named in one warning each.
extension ServiceConfiguration {
  /// Options read elsewhere (`paths`, `serveAllStyles`) or mapped here.
  private static let mappedOptions: Set<String> = [
    "paths", "serveAllStyles", "maxScaleFactor", "maxSize", "allowedHosts", "domains", "pbfAlias", "frontPage",
    "serveStaticMaps", "leafletRetina",
  ]

  /// Options Tessera does not use, with why (the warning's text).
  private static let unusedOptions: [String: String] = [
    "formatQuality": "Tessera encodes tiles with its own settings",
    "formatOptions": "Tessera encodes tiles with its own settings",
    "serveAllFonts": "Tessera serves every font stack under the fonts folder",
    "watermark": "Tessera draws no watermark",
    "staticAttributionText": "Tessera credits the style's sources itself",
    "tileMargin": "Tessera renders metatiles with a buffer of its own (tileBuffer)",
    "minRendererPoolSizes": "Tessera's render threads are its workers",
    "maxRendererPoolSizes": "Tessera's render threads are its workers",
    "allowRemoteMarkerIcons": "remote marker icons are allowed by 'iconHosts' in a Tessera config",
    "allowInlineMarkerImages": "Tessera's marker icons come from the icons folder or 'iconHosts'",
    "dataDecorator": "Tessera loads no code from its config",
  ]

  /// Reads `options`: the scale factor and image size limits, the allowed hosts, the icons
  /// folder; warns of the rest.
  mutating func readOptions(_ options: JSONCursor, paths: TileserverGLPaths) throws(JSONFieldError) {
    for key in try options.isAbsentOrNull ? [] : options.keys() where !Self.mappedOptions.contains(key) {
      let field = options[key]
      switch key {
      case "formatQuality", "formatOptions", "tileMargin", "minRendererPoolSizes", "maxRendererPoolSizes":
        if key == "tileMargin" { _ = try field.integer(in: 0...4096) }
      case "serveAllFonts", "allowRemoteMarkerIcons", "allowInlineMarkerImages":
        _ = try field.bool()
      case "watermark", "staticAttributionText":
        _ = try field.string()
      default:
        break
      }
      let why = Self.unusedOptions[key] ?? "not a tileserver-gl option Tessera knows"
      warnings.append("\(field.path): \(why); ignored")
    }
    if let factor = try options["maxScaleFactor"].optionalInteger(in: 1...9) {
      if factor > Self.largestScale {
        warnings.append(
          "options.maxScaleFactor: Tessera renders up to @\(Self.largestScale)x; \(factor) is taken as \(Self.largestScale)"
        )
      }
      maxScale = Double(min(factor, Self.largestScale))
    }
    if let size = try options["maxSize"].optionalInteger(in: 1...8192) {
      maxWidth = size
      maxHeight = size
    }
    if let hosts = try options["allowedHosts"].optionalString() {
      let names = hosts.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      let named = Set(names.filter { !$0.isEmpty })
      allowedHosts = named.isEmpty || named.contains("*") ? nil : named
    }
    if options["domains"].exists {
      tileDomains = try options["domains"].elements().map { domain throws(JSONFieldError) in
        let name = try domain.string()
        guard ServiceRouter.isHostName(name), !name.contains("/") else {
          throw domain.invalid("a host name with an optional port, such as tiles1.example.com:8080")
        }
        return name
      }
    }
    if let alias = try options["pbfAlias"].optionalString() {
      guard !alias.isEmpty, !alias.hasPrefix("."), !alias.hasSuffix("."), !alias.contains(".."),
        alias.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") })
      else {
        throw options["pbfAlias"].invalid("a file extension of letters, digits and dots, such as 'mvt' or 'pbf.pict'")
      }
      pbfAlias = alias
    }
    switch options["frontPage"].value {
    case .bool(let shown)?:
      servesFrontPage = shown
    case .string(let file)?:
      warnings.append("options.frontPage: Tessera serves its own index page, not \(file); the index is served")
    case nil, .null?:
      break
    default:
      throw options["frontPage"].mismatch("true, false or an HTML file")
    }
    servesTileserverStatic = try options["serveStaticMaps"].bool(default: true)
    viewerRetina = try options["leafletRetina"].bool(default: false)
    if let icons = paths.icons { iconFolder = icons }
    if let files = paths.files {
      warnings.append("options.paths.files: Tessera serves no static files; \(files) is not served")
    }
  }
}
