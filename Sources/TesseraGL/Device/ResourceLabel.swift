import TesseraNumbers

/// A GPU resource's name as errors show it, formatted only when one is shown.
///
/// A first frame makes hundreds of buffers and textures; formatting each one's key as it is
/// made cost more than making a small buffer (a plain enum is formatted by reflection, whose
/// first use of each type searches the binary's protocol conformances). Written as a string
/// literal, interpolations included (`"\(key) outline"`): the values are kept and formatted
/// by ``description``.
package struct ResourceLabel: Sendable, CustomStringConvertible, ExpressibleByStringInterpolation {
  private let parts: [Part]

  fileprivate enum Part: Sendable {
    case text(String)
    case value(@Sendable () -> String)
  }

  package init(stringLiteral text: String) {
    parts = text.isEmpty ? [] : [.text(text)]
  }

  package init(stringInterpolation: Interpolation) {
    parts = stringInterpolation.parts
  }

  /// A label whose text is `text`, already formatted.
  package init(_ text: String) {
    self.init(stringLiteral: text)
  }

  /// This label followed by `suffix`.
  package func appending(_ suffix: String) -> ResourceLabel {
    ResourceLabel(parts: parts + [.text(suffix)])
  }

  private init(parts: [Part]) {
    self.parts = parts
  }

  package var description: String {
    parts.map { part in
      switch part {
      case .text(let text): return text
      case .value(let format): return format()
      }
    }.joined()
  }

  /// Collects a label literal's text and values, formatting nothing.
  package struct Interpolation: StringInterpolationProtocol {
    fileprivate var parts: [Part] = []

    package init(literalCapacity: Int, interpolationCount: Int) {
      parts.reserveCapacity(2 * interpolationCount + 1)
    }

    package mutating func appendLiteral(_ literal: String) {
      if !literal.isEmpty { parts.append(.text(literal)) }
    }

    package mutating func appendInterpolation(_ value: some Sendable) {
      parts.append(.value { "\(value)" })
    }
  }
}
