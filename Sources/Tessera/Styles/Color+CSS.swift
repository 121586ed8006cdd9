import TesseraImage
import TesseraNumbers

extension Color {
  /// The colour as CSS `rgba(…)` (channels in whole steps of 0…255, alpha 0…1), for documents
  /// that write colours as text: Google styling rules turned into style JSON, scene entries.
  var cssText: String {
    func channel(_ value: Double) -> Int { Int(clamping: (min(max(value, 0), 1) * 255).rounded()) }
    return "rgba(\(channel(red)), \(channel(green)), \(channel(blue)), \(min(max(alpha, 0), 1)))"
  }
}
