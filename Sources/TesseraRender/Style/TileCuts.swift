import TesseraNumbers

/// The lines a frame will be cut along into tiles drawn apart (raster tiles rendered as
/// metatiles), and what such a frame draws differently so that its pieces agree with pieces of
/// other frames:
/// - no label crosses a line: a label or icon whose box, grown by ``margin``, crosses one is
///   not drawn, so no piece shows part of a label whose rest another frame may not draw
///   (labels wholly on one side are placed as usual);
/// - extrusions are drawn flat (their roofs at height 0): walls seen through a perspective
///   camera lean away from the frame's centre, which differs from frame to frame.
package struct TileCuts: Sendable, Hashable {
  /// x of the vertical lines, screen points from the left edge.
  package var vertical: [Double]
  /// y of the horizontal lines, screen points from the top edge.
  package var horizontal: [Double]
  /// Points a box is grown by on every side before the test (halos and antialiasing reach
  /// beyond the glyph boxes).
  package var margin: Double
  /// Points beyond the frame's edges labels are placed and collide in (100 as in a map;
  /// MapLibre's tile mode uses 1,024 so that labels near a tile's edge meet the same
  /// neighbours in both tiles).
  package var collisionMargin: Double
  /// MapLibre's tile mode, for a frame that is exactly one tile drawn alone (its render
  /// tests): symbols anchored in the tile's buffer are kept, so a label crossing the border
  /// shows in both tiles; labels along lines stay inside the tile; point labels whose boxes
  /// cross the tile's borders (or a neighbour's) are placed first, in an order both tiles
  /// agree on, and labels with variable anchors cross borders only at their first anchor.
  package var tilePlacement: Bool

  package init(
    vertical: [Double], horizontal: [Double], margin: Double = 2, collisionMargin: Double = 100,
    tilePlacement: Bool = false
  ) {
    self.vertical = vertical
    self.horizontal = horizontal
    self.margin = margin
    self.collisionMargin = collisionMargin
    self.tilePlacement = tilePlacement
  }

  /// Whether `box` (screen points) crosses a line.
  func crosses(_ box: CollisionGrid.Box) -> Bool {
    vertical.contains { box.minX - margin < $0 && $0 < box.maxX + margin }
      || horizontal.contains { box.minY - margin < $0 && $0 < box.maxY + margin }
  }
}
