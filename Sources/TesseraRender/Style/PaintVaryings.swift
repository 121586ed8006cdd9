import TesseraNumbers
import TesseraStyle

/// The style programs a style draws with their paint passed as flat varyings (the
/// `PAINT_VARYINGS` switch of `PaintPragma`): those it draws with more than one set of
/// data-driven properties (``PaintMask``).
///
/// On llvmpipe, the first draw with each distinct set of fragment-shader inputs has LLVM
/// generate a triangle-setup function (3–5 ms each on a 2-core machine, not kept in Mesa's
/// disk cache). A program's paint variants read different inputs (a varying for each
/// data-driven property, a uniform for each constant one), so a style with fills of constant
/// colour and fills coloured by data pays for both. With the switch, every paint property is a
/// flat varying (the uniform copied into it when constant) and the variants share one setup
/// function. A program drawn with one set only keeps its uniforms: the switch would add
/// per-vertex outputs for no sharing (and a constant fill without inputs shares its setup
/// function with other input-less programs).
///
/// The choice is made once per style, from all its layers, so one style's draws are the same
/// at every camera.
struct PaintVaryings: Sendable, Equatable {
  /// The switch (`PaintPragma.varyingsDefine`).
  static let define = "PAINT_VARYINGS"

  /// The names of the programs drawn with the switch.
  let programs: Set<String>

  /// No program passes paint as varyings.
  static let none = PaintVaryings(programs: [])

  init(programs: Set<String>) {
    self.programs = programs
  }

  /// The choice for a style's `layers`: the programs their pipelines use with more than one
  /// paint mask. A layer's masks do not depend on the zoom, so each is asked at its lowest.
  init(layers: [StyleLayer]) {
    var masks: [String: Set<PaintMask>] = [:]
    for layer in layers {
      guard let renderer = StyleLayerRenderers.renderer(for: layer.type) else { continue }
      let context = PipelineContext(zoom: layer.minZoom, clipsWithStencil: false)
      for pipeline in renderer.pipelines(layer, context) where pipeline.program.paint != nil {
        masks[pipeline.program.name, default: []].insert(pipeline.mask)
      }
    }
    programs = Set(masks.filter { $0.value.count > 1 }.keys)
  }

  /// `pipeline` with the switch when its program is one of ``programs``.
  func apply(_ pipeline: StylePipeline) -> StylePipeline {
    guard programs.contains(pipeline.program.name), !pipeline.switches.contains(Self.define) else { return pipeline }
    var switched = pipeline
    switched.switches = (pipeline.switches + [Self.define]).sorted()
    return switched
  }
}
