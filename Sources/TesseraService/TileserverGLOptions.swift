import Foundation
import TesseraJSON
import TesseraNumbers

/// The `options` of a tileserver-gl config: those with a Tessera equivalent set it, the others
/// are checked for their type and named in one warning each.
extension ServiceConfiguration {
  /// Options read elsewhere (`paths`, `serveAllStyles`) or mapped here.
  private static let mappedOptions: Set<String> = [
    "paths", "serveAllStyles", "maxScaleFactor", "maxSize", "allowedHosts",
  ]

  /// Options Tessera does not use, with why (the warning's text).
  private static let unusedOptions: [String: String] = [
    "formatQuality": "Tessera encodes tiles with its own settings",
    "formatOptions": "Tessera encodes tiles with its own settings",
    "serveAllFonts": "Tessera serves no font endpoints",
    "pbfAlias": "Tessera serves no vector tile endpoints",
    "domains": "tile URLs start with publicUrl (or are relative); set 'publicUrl' in a Tessera config instead",
    "frontPage": "Tessera serves no web pages",
    "serveStaticMaps": "Tessera's static maps are the Google Static Maps API at /maps/api/staticmap",
    "watermark": "Tessera draws no watermark",
    "staticAttributionText": "Tessera credits the style's sources itself",
    "tileMargin": "Tessera renders metatiles with a buffer of its own (tileBuffer)",
    "minRendererPoolSizes": "Tessera's render threads are its workers",
    "maxRendererPoolSizes": "Tessera's render threads are its workers",
    "leafletRetina": "Tessera serves no web pages",
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
      case "serveAllFonts", "serveStaticMaps", "leafletRetina", "allowRemoteMarkerIcons", "allowInlineMarkerImages":
        _ = try field.bool()
      case "pbfAlias", "watermark", "staticAttributionText":
        _ = try field.string()
      case "domains":
        for domain in try field.elements() { _ = try domain.string() }
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
    if let icons = paths.icons { iconFolder = icons }
    if let files = paths.files {
      warnings.append("options.paths.files: Tessera serves no static files; \(files) is not served")
    }
  }
}
