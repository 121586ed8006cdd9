import TesseraJSON
import TesseraNumbers

/// A layer of a style with its filter and properties compiled.
package struct StyleLayer: Sendable {
  /// Whether a property reads the feature state (its geometry is rebuilt when states change);
  /// worked out once, when the layer is parsed (frames ask for every tile).
  package internal(set) var readsFeatureState = false

  package let id: String
  package let type: LayerType
  package let source: String?
  package let sourceLayer: String?
  /// Style zooms (camera zoom − 1) the layer shows at: minzoom ≤ z < maxzoom.
  package let minZoom: Double
  package let maxZoom: Double
  package let filter: Expression?
  package let isVisible: Bool
  /// Every property of the layer type: the style's value or the default, by name (read one
  /// property through its typed key: ``value(_:zoom:feature:)``).
  package let properties: [String: PropertyValue]
  /// The layer's object as the style writes it (what layers drawing the same geometry are
  /// recognised by).
  package let definition: JSONValue

  /// The value the style gives `property` (an expression of zoom and feature data), or its
  /// default when the style gives none or the layer's type has no such property.
  package subscript<Value>(_ property: StyleProperty<Value>) -> PropertyValue {
    properties[property.spec.name] ?? PropertyValue(default: property.spec)
  }

  /// `property` evaluated at `zoom` (style zoom) for `feature`; its default when evaluation
  /// fails or gives a value of the wrong type (as MapLibre does).
  package func value<Value>(_ property: StyleProperty<Value>, zoom: Double?, feature: (any StyleFeature)? = nil)
    -> Value
  {
    Value(styleValue: self[property].evaluate(zoom: zoom, feature: feature)) ?? property.defaultValue
  }

  /// Whether the layer shows at `zoom` (style zoom).
  package func isVisible(atZoom zoom: Double) -> Bool {
    isVisible && zoom >= minZoom && zoom < maxZoom
  }

  /// Whether `feature` passes the filter (evaluation errors reject it).
  package func accepts(_ feature: any StyleFeature, zoom: Double) -> Bool {
    guard let filter else { return true }
    return (try? filter.evaluate(EvaluationContext(zoom: zoom, feature: feature))) == .bool(true)
  }

  static func parse(_ cursor: JSONCursor, sources: [String: StyleSource], warnings: inout [String]) throws(StyleError)
    -> StyleLayer?
  {
    let path = cursor.path
    do {
      let id = try cursor["id"].string()
      let name = "layer '\(id)'"
      let typeName = try cursor["type"].string()
      guard let type = LayerType(rawValue: typeName) else {
        warnings.append("\(path) (\(name)): unknown layer type '\(typeName)'; the layer is skipped")
        return nil
      }
      guard let specs = PropertySpec.byLayerType[type] else {
        // A layer type whose properties the style model does not describe yet: kept (so the
        // renderer can say it is not drawn), without properties, never visible.
        return StyleLayer(
          id: id, type: type, source: nil, sourceLayer: nil, minZoom: 0, maxZoom: 24, filter: nil, isVisible: false,
          properties: [:], definition: cursor.value ?? .null)
      }
      var source: String?
      if type != .background {
        source = try cursor["source"].string()
        guard sources[source!] != nil else {
          throw StyleError(
            path: "\(path).source", message: "\(name) uses source '\(source!)', which the style does not declare")
        }
      }
      var properties: [String: PropertyValue] = [:]
      for spec in specs.values { properties[spec.name] = PropertyValue(default: spec) }
      for group in ["paint", "layout"] where cursor[group].exists {
        for (key, value) in try cursor[group].members() {
          let propertyPath = "\(path).\(group).\(key)"
          guard let spec = specs[key], spec.isPaint == (group == "paint") else {
            warnings.append(
              "\(propertyPath) (\(name)): unknown \(group) property '\(key)' for a \(type.rawValue) layer; ignored")
            continue
          }
          if spec.type == .unsupported {
            warnings.append("\(propertyPath) (\(name)): '\(key)' is not drawn yet; ignored")
            continue
          }
          properties[key] = try PropertyValue.parse(value.value ?? .null, spec: spec, path: propertyPath)
        }
      }
      let visible =
        properties[LayerProperties.visibility.spec.name]?.evaluate(zoom: nil) != .string("none")
      var layer = StyleLayer(
        id: id, type: type, source: source, sourceLayer: try cursor["source-layer"].optionalString(),
        minZoom: try cursor["minzoom"].number(default: 0), maxZoom: try cursor["maxzoom"].number(default: 24),
        filter: cursor["filter"].isAbsentOrNull
          ? nil : try Filter.parse(cursor["filter"].value!, path: "\(path).filter"),
        isVisible: visible, properties: properties, definition: cursor.value ?? .null)
      layer.readsFeatureState = properties.values.contains { $0.expression.readsFeatureState }
      return layer
    } catch let error as StyleError {
      throw error
    } catch let error as JSONFieldError {
      throw StyleError(path: error.path, message: "expected \(error.expected), found \(error.found)")
    } catch {
      throw StyleError(path: path, message: "\(error)")
    }
  }
}
