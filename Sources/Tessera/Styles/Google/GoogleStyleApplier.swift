import Foundation
import TesseraImage
import TesseraJSON
import TesseraNumbers

/// Applies Google map styling to a built-in map type's style document, layer by layer through
/// ``GoogleStyleMapping``: colours are changed by the stylers of every rule that selects the
/// feature and element (in the rules' order), hidden elements are filtered out, and `weight`
/// sets line and halo widths. A layer whose features are of several types gets `match`
/// expressions on the property that tells them apart.
struct GoogleStyleApplier {
  let style: MapStyle

  /// The leaves of the element taxonomy a layer's properties are.
  static let leaves = ["geometry.fill", "geometry.stroke", "labels.icon", "labels.text.fill", "labels.text.stroke"]

  /// What the rules do to one feature type: per element leaf, the colour stylers in order,
  /// whether it shows and the weight set.
  struct Outcome: Equatable {
    var stylers: [String: [MapStyle.Styler]] = [:]
    var visible: [String: Bool] = [:]
    var weight: [String: Double] = [:]

    var isIdentity: Bool { stylers.values.allSatisfy(\.isEmpty) && visible.values.allSatisfy { $0 } && weight.isEmpty }
    /// Text hidden with the icon (shields' route numbers).
    var iconCarriesText = false
    func shows(_ leaf: String) -> Bool {
      if iconCarriesText && leaf.hasPrefix("labels.text") && !(visible["labels.icon"] ?? true) { return false }
      return visible[leaf] ?? true
    }
  }

  static func matches(_ selector: String, _ value: String) -> Bool {
    selector == "all" || value == selector || value.hasPrefix(selector + ".")
  }

  func outcome(for featureType: String, iconCarriesText: Bool = false) -> Outcome {
    var outcome = Outcome()
    outcome.iconCarriesText = iconCarriesText
    for leaf in Self.leaves {
      var stylers: [MapStyle.Styler] = []
      var visible = true
      for rule in style.rules
      where Self.matches(rule.featureType, featureType) && Self.matches(rule.elementType, leaf) {
        for styler in rule.stylers {
          switch styler {
          case .visibility(let visibility):
            visible =
              visibility == .on || (visibility == .simplified && !["geometry.stroke", "labels.icon"].contains(leaf))
          case .weight(let weight):
            outcome.weight[leaf] = weight
          default:
            stylers.append(styler)
          }
        }
      }
      outcome.stylers[leaf] = stylers
      outcome.visible[leaf] = visible
    }
    return outcome
  }

  /// The styled document and warnings for rules that select nothing this map type draws.
  func apply(to document: JSONValue) -> (document: JSONValue, warnings: [String]) {
    guard case .object(var root) = document, case .array(let layers)? = root["layers"] else { return (document, []) }
    var drawn = Set<String>()
    var styled: [JSONValue] = []
    for value in layers {
      guard case .object(let layer) = value, case .string(let id)? = layer["id"],
        let mapping = GoogleStyleMapping.layers[id]
      else {
        styled.append(value)
        continue
      }
      let restricted = Self.restricted(mapping, by: layer["filter"])
      drawn.formUnion(restricted.features.all)
      if let result = styledLayer(layer, restricted) { styled.append(.object(result)) }
    }
    root["layers"] = .array(styled)
    var warnings: [String] = []
    for (index, rule) in style.rules.enumerated() where !drawn.contains(where: { Self.matches(rule.featureType, $0) }) {
      warnings.append(
        "map style rule \(index): nothing in this map type is a '\(rule.featureType)' feature; the rule changes nothing"
      )
    }
    if style.rules.contains(where: { rule in
      ["labels.icon"].contains(rule.elementType)
        && rule.stylers.contains { if case .visibility = $0 { false } else { true } }
    }) {
      warnings.append("map style: label icons are pictures; only their visibility is styled")
    }
    return (.object(root), warnings)
  }

  /// `mapping` narrowed to the values the layer's filter lets through, when the filter is a
  /// `match` on the same property (a road layer of some classes only); a single feature type
  /// left becomes the layer's only one.
  static func restricted(_ mapping: GoogleStyleMapping.Layer, by filter: JSONValue?) -> GoogleStyleMapping.Layer {
    guard case .byProperty(let property, let table, _) = mapping.features,
      let filter = filter?.array, filter.count == 5, filter[0] == "match", filter[1] == ["get", .string(property)],
      filter[3] == true, filter[4] == false
    else { return mapping }
    let allowed = filter[2].array ?? [filter[2]]
    let types = Set(table.filter { allowed.contains($0.0) }.map(\.1))
    var narrowed = mapping
    if types.count == 1, let only = types.first, allowed.allSatisfy({ label in table.contains { $0.0 == label } }) {
      narrowed.features = .one(only)
    } else {
      narrowed.features = .byProperty(
        property, table.filter { allowed.contains($0.0) },
        otherwise: { if case .byProperty(_, _, let fallback) = mapping.features { fallback } else { "" } }())
    }
    return narrowed
  }

  /// `layer` styled, or nil when every feature of it is hidden.
  private func styledLayer(_ layer: JSONObject, _ mapping: GoogleStyleMapping.Layer) -> JSONObject? {
    // The groups of property values sharing an outcome (one group for a single feature type).
    var groups: [(labels: [JSONValue], outcome: Outcome)] = []
    var otherwise: Outcome
    var property: String?
    switch mapping.features {
    case .one(let type):
      otherwise = outcome(for: type, iconCarriesText: mapping.textBelongsToIcon)
    case .byProperty(let name, let table, let fallback):
      property = name
      otherwise = outcome(for: fallback, iconCarriesText: mapping.textBelongsToIcon)
      for (label, type) in table {
        let result = outcome(for: type, iconCarriesText: mapping.textBelongsToIcon)
        if let index = groups.firstIndex(where: { $0.outcome == result }) {
          groups[index].labels.append(label)
        } else {
          groups.append(([label], result))
        }
      }
    }
    // Labels sharing the fallback's outcome need no arm of their own.
    groups.removeAll { $0.outcome == otherwise }
    if otherwise.isIdentity && groups.isEmpty { return layer }
    let type = layer["type"]?.string ?? ""
    /// `make(outcome)` for every group: one value, or a `match` on the property.
    func grouped(_ make: (Outcome) -> JSONValue) -> JSONValue {
      let fallback = make(otherwise)
      let arms = groups.map { ($0.labels, make($0.outcome)) }.filter { $0.1 != fallback }
      guard let property, !arms.isEmpty else { return fallback }
      var expression: [JSONValue] = ["match", ["get", .string(property)]]
      for (labels, value) in arms { expression += [.array(labels), value] }
      expression.append(fallback)
      return .array(expression)
    }
    func hidden(_ outcome: Outcome) -> Bool {
      switch type {
      case "symbol":
        return !outcome.shows("labels.text.fill")
          && (!outcome.shows("labels.icon") || layer["layout"]?["icon-image"] == nil)
      case "line": return !outcome.shows(mapping.lineElement)
      default: return !outcome.shows("geometry.fill")
      }
    }
    var result = layer
    // Hidden features: the whole layer, or those of the hidden groups.
    let hiddenLabels = groups.filter { hidden($0.outcome) }.flatMap(\.labels)
    if hidden(otherwise) && groups.allSatisfy({ hidden($0.outcome) }) { return nil }
    if property != nil, hidden(otherwise) || !hiddenLabels.isEmpty {
      let shown = grouped { hidden($0) ? false : true }
      result["filter"] = layer["filter"].map { ["all", $0, shown] } ?? shown
    }
    // Colours.
    if case .object(var paint)? = layer["paint"] {
      for (name, value) in paint.pairs {
        guard let element = GoogleStyleMapping.element(ofColor: name, in: mapping) else { continue }
        paint[name] = grouped { outcome in
          outcome.shows(element) ? Self.recolored(value, outcome.stylers[element] ?? []) : "rgba(0, 0, 0, 0)"
        }
      }
      if type == "line" {
        let element = mapping.lineElement
        if let original = paint["line-width"] {
          paint["line-width"] = grouped { $0.weight[element].map { .number($0) } ?? original }
        }
      }
      if type == "symbol", let original = paint["text-halo-width"] {
        paint["text-halo-width"] = grouped { outcome in
          outcome.shows("labels.text.stroke") ? outcome.weight["labels.text.stroke"].map { .number($0) } ?? original : 0
        }
      }
      result["paint"] = .object(paint)
    }
    // Labels: text or icon alone hidden.
    if type == "symbol", case .object(var layout)? = layer["layout"] {
      if let field = layout["text-field"] {
        layout["text-field"] = grouped { $0.shows("labels.text.fill") ? field : "" }
      }
      if let icon = layout["icon-image"] {
        layout["icon-image"] = grouped { $0.shows("labels.icon") ? icon : "" }
      }
      result["layout"] = .object(layout)
    }
    return result
  }

  /// `value` with every colour literal in it changed by `stylers`.
  static func recolored(_ value: JSONValue, _ stylers: [MapStyle.Styler]) -> JSONValue {
    guard !stylers.isEmpty else { return value }
    switch value {
    case .string(let text):
      guard text.hasPrefix("#") || text.hasPrefix("rgb") || text.hasPrefix("hsl"), let color = try? Color(css: text)
      else { return value }
      return .string(GoogleStylers.apply(stylers, to: color).cssText)
    case .array(let elements):
      return .array(elements.map { recolored($0, stylers) })
    default:
      return value
    }
  }
}
