import Foundation
import Testing

@testable import Tessera
@testable import TesseraService

/// Inputs the request readers once crashed or stalled on, each answered now with a reason or
/// read at a cost that does not grow with copies of the same thing.
@Suite struct ReaderFindingsTests {
  /// `/styles/{id}/static/@/…`: a camera of only `@` was split into nothing and indexed (the
  /// server process trapped). Empty pieces of the camera are now malformed.
  @Test func tileserverCamerasWithEmptyPiecesAreRefused() {
    let configuration = ServiceConfiguration()
    for camera in ["@", "@30", "@@", "15@", "-74,40,15@", "-74,40,15@30,", "-74,,40,15", ",-74,40,15", "auto@"] {
      #expect(throws: ServiceError.self, "\(camera)") {
        _ = try TileserverQuery(
          style: .mapType(.normal), camera: camera, size: "100x100.png",
          request: ServiceReaders.request(target: "/x?marker=-74,40"), configuration: configuration)
      }
    }
    #expect(ServiceReaders.exercise(target: "/styles/normal/static/@/100x100.png", body: [], contentType: nil) == [])
    // The forms tileserver-gl documents still read.
    for camera in ["-74,40,15", "-74,40,15@30", "-74,40,15@30,45", "-74.1,39.9,-73.9,40.1", "auto", "auto@20"] {
      #expect(throws: Never.self, "\(camera)") {
        _ = try TileserverQuery(
          style: .mapType(.normal), camera: camera, size: "100x100.png",
          request: ServiceReaders.request(target: "/x?marker=-74,40"), configuration: configuration)
      }
    }
  }

  /// A body of thousands of labelled Static Maps pins drew three pictures of every one while it
  /// was read (a 280 kB body held a request thread for minutes). Pins alike now share one icon,
  /// drawn only when shown, at the density shown.
  @Test func staticMapsPinsAreSharedAndDrawnWhenShown() throws {
    let marker = ##"{"position": [43.7, 7.4], "label": "A", "size": "mid", "color": "#ff8800"}"##
    let other = #"{"position": [43.71, 7.41], "label": "B"}"#
    let body =
      #"{"size": {"width": 100, "height": 100}, "markers": ["#
      + Array(repeating: marker, count: 5000).joined(separator: ", ") + ", " + other + "]}"
    let scene = try SceneBody.scene(Array(body.utf8), configuration: ServiceConfiguration())
    let content = try SceneContent(scene: scene)
    #expect(content.markers.count == 5001)
    #expect(Set(content.markers.compactMap { $0.icon.map(ObjectIdentifier.init) }).count == 2)
    let icon = try #require(content.markers.first?.icon)
    guard case .staticMapsPin = icon.source else {
      Issue.record("a Static Maps pin is drawn when it is read")
      return
    }
    // The pixels are those of the variant the view would have chosen.
    let color = try Color(css: "#ff8800")
    for (scale, density) in [(1.0, 1.0), (1.5, 2), (2, 2), (3, 3), (4, 3)] {
      var expected = DefaultPin.image(color: color, scale: density * 0.8, drawsDot: false)
      PinLabel.draw(
        "A", on: &expected, headCentre: (13.5 * density * 0.8, 13 * density * 0.8), height: 13 * density * 0.8,
        color: DefaultPin.shade(color, by: 0.3))
      let shown = icon.image(forScale: scale)
      #expect(shown.scale == density)
      #expect(shown.image == expected, "scale \(scale)")
    }
  }
}
