import Foundation
import Tessera
import Testing

/// `import Tessera` beside `import Foundation` leaves Foundation's names alone: the style
/// engine's expressions, the renderer's and the GL device's types stay inside the package.
@Suite struct NamespaceTests {
  /// `Expression` is Foundation's (a `#Expression` of one input), not an ambiguous name.
  @Test func expressionIsFoundations() throws {
    let isLarge: Expression<Int, Bool> = #Expression { $0 > 10 }
    #expect(try isLarge.evaluate(11))
    #expect(try !isLarge.evaluate(9))
  }

  /// The facade's own types and the lower modules' types it re-exports are used without
  /// further imports.
  @Test func facadeTypesNeedNoOtherImport() throws {
    let camera = try Camera(latitude: 52.52, longitude: 13.40, zoom: 12)
    let options = MapOptions(width: 64, height: 48, camera: camera)
    #expect(options.frameLimits == FrameLimits())
    #expect(TileID(z: 0, x: 0, y: 0).z == 0)
    #expect(Color.black != Color.white)
    #expect(GPUSelection.auto == .auto)
  }
}
