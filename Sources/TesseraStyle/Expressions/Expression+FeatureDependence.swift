import TesseraNumbers

extension Expression {
  /// What of a feature an expression reads.
  package enum FeatureDependence: Equatable, Sendable {
    /// Nothing: the same value for every feature.
    case none
    /// One attribute only, named by a literal key (`get` and `has` of it).
    case property(String)
    /// The geometry type only.
    case geometryType
    /// Anything else: several attributes, a computed key, the id, all properties, the
    /// geometry itself or feature state.
    case several
  }

  /// What of a feature the expression reads (see ``FeatureDependence``): an expression that
  /// reads one attribute is a function of that attribute's value alone, so a caller may
  /// evaluate it once per distinct value.
  package var featureDependence: FeatureDependence {
    var found = FeatureDependence.none
    func merge(_ next: FeatureDependence) {
      switch (found, next) {
      case (_, .none): break
      case (.none, _): found = next
      case (let a, let b) where a == b: break
      default: found = .several
      }
    }
    func visit(_ node: Expression) {
      guard found != .several else { return }
      switch node {
      case .get(.literal(.string(let key)), nil), .has(.literal(.string(let key)), nil):
        merge(.property(key))
        return
      case .get(_, nil), .has(_, nil), .featureID, .properties, .within, .featureState:
        merge(.several)
        return
      case .geometryType:
        merge(.geometryType)
        return
      default:
        for child in node.children { visit(child) }
      }
    }
    visit(self)
    return found
  }
}
