import Foundation
import Testing

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
}
