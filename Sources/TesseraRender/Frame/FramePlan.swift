import TesseraImage
import TesseraNumbers

/// Everything one frame draws, in order. Building it is pure (no GL); ``FrameExecutor`` runs it.
package struct FramePlan: Sendable {
  /// Output size in pixels.
  package let pixelWidth: Int
  package let pixelHeight: Int
  /// The colour the frame is cleared to (straight alpha).
  package let clearColor: Color
  /// Draws sorted by ``SortKey`` (stably: equal keys keep the order they were given in).
  package private(set) var commands: [DrawCommand]

  package init(pixelWidth: Int, pixelHeight: Int, clearColor: Color, commands: [DrawCommand]) {
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    self.clearColor = clearColor
    self.commands = commands.enumerated().sorted { a, b in
      a.element.key == b.element.key ? a.offset < b.offset : a.element.key < b.element.key
    }.map(\.element)
  }
}
