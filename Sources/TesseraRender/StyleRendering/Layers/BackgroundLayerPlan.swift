import TesseraStyle

extension StyleFramePlanner {
  /// `background`: the colour over the whole view (patterns are not drawn).
  mutating func planBackground(_ layer: StyleLayer, index: Int) {
    let color = layer.property("background-color").color(zoom: input.zoom)
    let opacity = layer.property("background-opacity").number(zoom: input.zoom)
    guard opacity > 0, color.alpha > 0 else { return }
    append(
      index, .style(StylePipeline(program: .background)), .builtin(.fullScreenTriangle),
      [("u_color", color.uniform), ("u_opacity", .float(Float(opacity)))])
  }
}
