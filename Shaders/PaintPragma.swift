import TesseraNumbers

/// The `#pragma paint:` lines of Tessera's shaders: a paint property that is a uniform when
/// constant over a layer's features, or a per-vertex attribute holding its values at two zooms
/// when data-driven (the `HAS_ATTR_<NAME>` define), written once instead of as a block of
/// `#ifdef`s in every program.
///
/// `#pragma paint: define TYPE NAME` (at global scope) declares, in the vertex stage, the
/// attribute (`a_NAME` as a `vec2` for a `float`; `a_NAME_a` and `a_NAME_b` for a `vec4`
/// colour), the blend weight `u_NAME_t` and the varying `v_NAME`, or else the uniform
/// `u_NAME`; in the fragment stage the varying or the uniform.
///
/// `#pragma paint: initialize TYPE NAME` (in `main`) declares the local `NAME`: in the vertex
/// stage it also mixes the two zooms' values into `v_NAME`.
///
/// With `PAINT_VARYINGS` defined every paint property reaches the fragment stage as a `flat`
/// varying, the uniform copied into it when the property is constant: all paint variants of a
/// program then read the same fragment inputs, so llvmpipe generates one triangle-setup
/// function for them instead of one each (see `PaintVaryings` in TesseraRender).
public enum PaintPragma {
  /// The define that passes paint as flat varyings.
  public static let varyingsDefine = "PAINT_VARYINGS"

  /// A shader stage.
  public enum Stage: Sendable {
    case vertex
    case fragment
  }

  /// `source` with every `#pragma paint:` line replaced by its expansion for `stage`.
  public static func expand(_ source: String, stage: Stage) -> String {
    PragmaLines.rewrite(source) { line in
      let words = line.split(separator: " ", omittingEmptySubsequences: true)
      guard words.count == 5, words[0] == "#pragma", words[1] == "paint:" else { return nil }
      let indent = String(line.prefix { $0 == " " })
      let type = String(words[3])
      let name = String(words[4])
      precondition(type == "float" || type == "vec4", "#pragma paint: \(type) is not float or vec4 (\(line))")
      switch words[2] {
      case "define": return define(type: type, name: name, stage: stage).map { indent + $0 }
      case "initialize": return initialize(type: type, name: name, stage: stage).map { indent + $0 }
      default: preconditionFailure("#pragma paint: expected define or initialize (\(line))")
      }
    }
  }

  /// The names of the paint properties `source` declares (`#pragma paint: define TYPE NAME`).
  public static func definedNames(in source: String) -> Set<String> {
    var names = Set<String>()
    for line in PragmaLines.lines(of: source) {
      let words = line.split(separator: " ", omittingEmptySubsequences: true)
      if words.count == 5, words[0] == "#pragma", words[1] == "paint:", words[2] == "define" {
        names.insert(String(words[4]))
      }
    }
    return names
  }

  /// The declarations of a paint property.
  static func define(type: String, name: String, stage: Stage) -> [String] {
    let attribute = "HAS_ATTR_\(name.uppercased())"
    let varyings = varyingsDefine
    switch stage {
    case .vertex:
      let attributes =
        type == "vec4" ? ["in vec4 a_\(name)_a;", "in vec4 a_\(name)_b;"] : ["in vec2 a_\(name);"]
      return ["#ifdef \(attribute)"] + attributes + [
        "uniform float u_\(name)_t;", "#else", "uniform \(type) u_\(name);", "#endif",
        "#ifdef \(varyings)", "flat out \(type) v_\(name);", "#elif defined(\(attribute))", "out \(type) v_\(name);",
        "#endif",
      ]
    case .fragment:
      return [
        "#ifdef \(varyings)", "flat in \(type) v_\(name);", "#elif defined(\(attribute))", "in \(type) v_\(name);",
        "#else", "uniform \(type) u_\(name);", "#endif",
      ]
    }
  }

  /// The local variable of a paint property (and, in the vertex stage, its varying).
  static func initialize(type: String, name: String, stage: Stage) -> [String] {
    let attribute = "HAS_ATTR_\(name.uppercased())"
    let local = "\(type) \(name) = "
    let passed = "#if defined(\(attribute)) || defined(\(varyingsDefine))"
    switch stage {
    case .vertex:
      let mixed =
        type == "vec4"
        ? "mix(a_\(name)_a, a_\(name)_b, u_\(name)_t)" : "mix(a_\(name).x, a_\(name).y, u_\(name)_t)"
      return [
        "#ifdef \(attribute)", local + mixed + ";", "#else", local + "u_\(name);", "#endif", passed,
        "v_\(name) = \(name);", "#endif",
      ]
    case .fragment:
      return [passed, local + "v_\(name);", "#else", local + "u_\(name);", "#endif"]
    }
  }
}
