import TesseraGeo
import TesseraStyle
import Testing

@testable import TesseraRender

/// Placement decisions on projected symbols, without a GPU or tiles: the decision reads the
/// collision grid and changes nothing.
@Suite struct SymbolDecisionTests {
  typealias Box = CollisionGrid.Box

  static func values(layout: String = #"{"text-field": "x"}"#) throws -> SymbolPlacer.LayerValues {
    let style = try Style.parse(
      Array(
        #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "t", "type": "symbol", "source": "s", "layout": \#(layout)}]}"#
          .utf8))
    let transform = CameraTransform(
      camera: try Camera(latitude: 0, longitude: 0, zoom: 10), viewport: try Viewport(width: 200, height: 100))
    return SymbolPlacer.LayerValues(layer: style.layers[0], zoom: 10, transform: transform)
  }

  /// A point label's anchor whose collision box is `box` (screen points).
  static func option(_ box: Box, first: Bool = false, icon: ProjectedIcon? = nil) -> SymbolProjection.TextOption {
    SymbolProjection.TextOption(
      label: ShapedLabel(quads: [], box: SymbolBox(left: 0, top: 0, right: 1, bottom: 1)), shift: .zero, box: box,
      unshifted: box, isFirst: first, icon: icon)
  }

  static func projection(_ text: SymbolProjection.Text, icon: ProjectedIcon? = nil) -> SymbolProjection {
    SymbolProjection(
      anchor: SymbolPlacer.Projected(clip: SIMD4(0, 0, 0, 1), screen: SIMD2(100, 50)), perspective: 1,
      mapPerspective: 1, textScale: 1, iconSize: 1, text: text, icon: icon)
  }

  static func icon(_ box: Box) -> ProjectedIcon {
    let image = IconImage(
      paddedTexture: SIMD4(0, 0, 12, 12), pixelRatio: 1, isSDF: false, stretchX: [], stretchY: [], content: nil)
    return ProjectedIcon(
      shape: ShapedIcon(
        box: SymbolBox(left: -5, top: -5, right: 5, bottom: 5), image: image, offset: .zero, rotation: 0),
      box: box, fitted: false)
  }

  /// A grid with one label placed in its top-left corner.
  static func grid() -> CollisionGrid {
    var grid = CollisionGrid(width: 200, height: 100)
    grid.insert(Box(minX: 0, minY: 0, maxX: 50, maxY: 50))
    return grid
  }

  static let taken = Box(minX: 10, minY: 10, maxX: 40, maxY: 40)
  static let free = Box(minX: 120, minY: 60, maxX: 160, maxY: 80)

  @Test func aVariableAnchorTakesTheFirstFreeBox() throws {
    let grid = SymbolDecisionTests.grid()
    let decision = SymbolDecision(
      SymbolDecisionTests.projection(
        .point([
          SymbolDecisionTests.option(SymbolDecisionTests.taken, first: true),
          SymbolDecisionTests.option(SymbolDecisionTests.free),
        ])),
      values: try SymbolDecisionTests.values(), hasVariableAnchors: true, grid: grid, cuts: nil, tilePass: nil)
    #expect(decision.option == 1 && decision.placeText && !decision.placeIcon)
    #expect(decision.occupied.map(\.minX) == [120])
    // Deciding took no room: the free box is still free.
    #expect(!grid.collides(SymbolDecisionTests.free))
  }

  @Test func aLabelWithNoFreeBoxKeepsItsFirstAnchorUnplaced() throws {
    let decision = SymbolDecision(
      SymbolDecisionTests.projection(.point([SymbolDecisionTests.option(SymbolDecisionTests.taken, first: true)])),
      values: try SymbolDecisionTests.values(), hasVariableAnchors: false, grid: SymbolDecisionTests.grid(),
      cuts: nil, tilePass: nil)
    #expect(decision.option == 0 && !decision.placeText && decision.occupied.isEmpty)
  }

  @Test func textAndIconNeedEachOtherUnlessOptional() throws {
    let projection = SymbolDecisionTests.projection(
      .point([SymbolDecisionTests.option(SymbolDecisionTests.free, first: true)]),
      icon: SymbolDecisionTests.icon(SymbolDecisionTests.taken))
    let both = SymbolDecision(
      projection, values: try SymbolDecisionTests.values(), hasVariableAnchors: false,
      grid: SymbolDecisionTests.grid(), cuts: nil, tilePass: nil)
    #expect(!both.placeText && !both.placeIcon && both.occupied.isEmpty)
    let optional = SymbolDecision(
      projection, values: try SymbolDecisionTests.values(layout: #"{"text-field": "x", "icon-optional": true}"#),
      hasVariableAnchors: false, grid: SymbolDecisionTests.grid(), cuts: nil, tilePass: nil)
    #expect(optional.placeText && !optional.placeIcon && optional.occupied.map(\.minX) == [120])
  }

  @Test func textAlongALineNeedsEveryGlyphBoxFree() throws {
    var layout = LineLabelLayout()
    layout.boxes = [SymbolDecisionTests.free, SymbolDecisionTests.taken]
    let decision = SymbolDecision(
      SymbolDecisionTests.projection(.alongLine(layout)), values: try SymbolDecisionTests.values(),
      hasVariableAnchors: false, grid: SymbolDecisionTests.grid(), cuts: nil, tilePass: nil)
    #expect(decision.option == nil && !decision.placeText)
    layout.boxes = [SymbolDecisionTests.free]
    let free = SymbolDecision(
      SymbolDecisionTests.projection(.alongLine(layout)), values: try SymbolDecisionTests.values(),
      hasVariableAnchors: false, grid: SymbolDecisionTests.grid(), cuts: nil, tilePass: nil)
    #expect(free.placeText && free.occupied.count == 1)
  }

  @Test func aFittedIconAtAVariableAnchorMustFitThere() throws {
    let values = try SymbolDecisionTests.values(
      layout: #"{"text-field": "x", "icon-image": "i", "icon-text-fit": "both"}"#)
    let decision = SymbolDecision(
      SymbolDecisionTests.projection(
        .point([
          SymbolDecisionTests.option(
            SymbolDecisionTests.free, first: true, icon: SymbolDecisionTests.icon(SymbolDecisionTests.taken)),
          SymbolDecisionTests.option(
            Box(minX: 60, minY: 60, maxX: 100, maxY: 80),
            icon: SymbolDecisionTests.icon(Box(minX: 55, minY: 55, maxX: 105, maxY: 85))),
        ]), icon: SymbolDecisionTests.icon(SymbolDecisionTests.free)),
      values: values, hasVariableAnchors: true, grid: SymbolDecisionTests.grid(), cuts: nil, tilePass: nil)
    // The first anchor's text is free but its icon is not: the label moves to the second.
    #expect(decision.option == 1 && decision.placeText && decision.placeIcon && decision.drawsIcon)
    #expect(decision.icon?.box.minX == 55)
  }

  @Test func aFittedIconWithoutItsTextTakesRoomUnseen() throws {
    let values = try SymbolDecisionTests.values(
      layout: #"{"text-field": "x", "icon-image": "i", "icon-text-fit": "both", "text-optional": true}"#)
    let decision = SymbolDecision(
      SymbolDecisionTests.projection(
        .point([
          SymbolDecisionTests.option(
            SymbolDecisionTests.taken, first: true, icon: SymbolDecisionTests.icon(SymbolDecisionTests.taken))
        ]), icon: SymbolDecisionTests.icon(SymbolDecisionTests.free)),
      values: values, hasVariableAnchors: true, grid: SymbolDecisionTests.grid(), cuts: nil, tilePass: nil)
    // The text finds no room; the icon stays where the unshifted text would be.
    #expect(!decision.placeText && decision.placeIcon && !decision.drawsIcon)
    #expect(decision.occupied.map(\.minX) == [120])
  }

  @Test func touchingBoxesCollideTouchingCirclesDoNot() {
    var grid = CollisionGrid(width: 200, height: 100)
    grid.insert(Box(minX: 0, minY: 0, maxX: 50, maxY: 50))
    grid.insert(.circle(x: 150, y: 50, radius: 10))
    #expect(grid.collides(Box(minX: 50, minY: 10, maxX: 60, maxY: 20)))
    #expect(!grid.collides(Box(minX: 50.5, minY: 10, maxX: 60, maxY: 20)))
    #expect(grid.collides(Box(minX: 160, minY: 45, maxX: 170, maxY: 55)))
    #expect(!grid.collides(.circle(x: 170, y: 50, radius: 10)))
    #expect(grid.collides(.circle(x: 169, y: 50, radius: 10)))
  }
}
