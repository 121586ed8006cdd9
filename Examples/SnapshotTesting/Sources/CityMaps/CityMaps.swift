import Tessera

/// The maps the app shows, as scenes: what its screens and its server draw.
public enum CityMaps {
  /// The city centre from above: streets, parks and labels.
  public static func overview() throws -> Scene {
    let camera = try Camera(latitude: 40.0, longitude: -74.0, zoom: 15.5)
    return Scene(options: MapOptions(width: 320, height: 240, camera: camera), name: "overview")
  }

  /// A tilted street view at night, turned to face north-east.
  public static func nightStreets() throws -> Scene {
    let camera = try Camera(latitude: 40.0, longitude: -74.0, zoom: 16.5, bearing: 45, viewingAngle: 50)
    return Scene(
      options: MapOptions(width: 320, height: 240, camera: camera, colorScheme: .dark), name: "night-streets")
  }
}
