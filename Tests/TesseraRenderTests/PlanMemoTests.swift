import Testing

@testable import TesseraRender

/// What layer renderers keep between frames: one value per layer, type and variant, only for
/// the zoom it was made at, and never more than the capacity.
@Suite struct PlanMemoTests {
  struct Reach: Sendable, Equatable { let points: Double }
  struct Width: Sendable, Equatable { let points: Double }

  @Test func keepsOneValuePerLayerTypeAndVariantAtOneZoom() {
    let memo = PlanMemo()
    var made = 0
    func reach(_ layer: String, variant: Int = 0, zoom: Double, _ value: Double) -> Reach {
      memo.value(layer: layer, variant: variant, zoom: zoom) {
        made += 1
        return Reach(points: value)
      }
    }
    #expect(reach("roads", zoom: 15, 4) == Reach(points: 4))
    #expect(reach("roads", zoom: 15, 99) == Reach(points: 4))
    #expect(made == 1)
    // Another layer, variant or type is another value.
    #expect(reach("rail", zoom: 15, 2) == Reach(points: 2))
    #expect(reach("roads", variant: 1, zoom: 15, 6) == Reach(points: 6))
    #expect(memo.value(layer: "roads", zoom: 15) { Width(points: 3) } == Width(points: 3))
    #expect(made == 3 && memo.count == 4)
    // Another zoom starts afresh: the old zoom's values are gone.
    #expect(reach("roads", zoom: 15.5, 8) == Reach(points: 8))
    #expect(memo.count == 1)
    #expect(reach("roads", zoom: 15, 9) == Reach(points: 9))
    #expect(made == 5)
  }

  @Test func holdsAtMostItsCapacity() {
    let memo = PlanMemo()
    for index in 0..<(PlanMemo.capacity + 10) {
      _ = memo.value(layer: "layer \(index)", zoom: 12) { Reach(points: Double(index)) }
      #expect(memo.count <= PlanMemo.capacity)
    }
  }
}
