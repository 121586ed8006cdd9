import Foundation
import TesseraJSON
import TesseraNumbers

/// A style's viewer `/styles/{id}/`: its raster tiles in Leaflet, and a camera panel showing
/// the same view turned and tilted through the static endpoint.
extension ServiceRouter {
  func viewerPage(_ id: String, request: HTTPRequest) -> String {
    let view = startingView(ofStyle: id)
    let segment = HTML.segment(id)
    var maxZoom = 22.0
    var attribution = ""
    if let tileJSON = try? tileJSON(id, tileSize: 256, request: request) {
      maxZoom = tileJSON["maxzoom"]?.number ?? maxZoom
      attribution = tileJSON["attribution"]?.string ?? ""
    }
    let settings: JSONObject = [
      "id": .string(id), "tiles": .string("/styles/\(segment)/{z}/{x}/{y}{r}.png"),
      "static": configuration.servesTileserverStatic ? .string("/styles/\(segment)/static/") : .null,
      "center": [.number(view.latitude), .number(view.longitude)],
      // Leaflet counts zoom in 256-point tiles, one more than the style's.
      "zoom": .number(view.zoom + 1), "maxZoom": .number(min(maxZoom, 22)),
      "attribution": .string(attribution), "retina": .bool(configuration.viewerRetina),
    ]
    let missing =
      PageAsset.leafletIsInstalled
      ? "" : "<p class=\"notice\">Leaflet is not installed on this server (Debian package libjs-leaflet).</p>"
    let body = """
      <header><h1>\(HTML.escape(id))</h1><nav><a href="/">All styles</a>\
      <a href="/styles/\(segment).json">TileJSON</a><a href="/styles/\(segment)/wmts.xml">WMTS</a></nav></header>
      \(missing)
      <div class="split">
      <div class="map" id="map"></div>
      <aside id="camera">
      <h2>Camera</h2>
      <p class="muted">The same view, turned and tilted, rendered by the static endpoint.</p>
      <label for="bearing">Bearing <output id="bearing-value">0</output>°</label>
      <input type="range" id="bearing" min="-180" max="180" step="1" value="-20">
      <label for="pitch">Tilt <output id="pitch-value">0</output>°</label>
      <input type="range" id="pitch" min="0" max="85" step="1" value="50">
      <p><img id="tilted" alt="the view tilted" width="320" height="240"></p>
      <p><code id="tilted-url"></code></p>
      </aside>
      </div>
      \(HTML.data("viewer-settings", JSONValue.object(settings).serialized()))
      """
    return HTML.page(
      title: "\(id) · Tessera", body: body, styles: [.leafletStyle], scripts: [.leafletScript, .viewerScript])
  }
}

/// The viewer's script: Leaflet over the style's tiles; the camera panel follows the map.
enum ViewerScript {
  static let text = #"""
    "use strict";
    (function () {
      const settings = JSON.parse(document.getElementById("viewer-settings").textContent);
      const hash = location.hash.slice(1).split("/").map(Number);
      const start = hash.length === 3 && hash.every(Number.isFinite)
        ? { zoom: hash[0], center: [hash[1], hash[2]] } : settings;
      const map = L.map("map", { zoomSnap: 1, maxZoom: settings.maxZoom }).setView(start.center, start.zoom);
      const retina = settings.retina && window.devicePixelRatio > 1 ? "@2x" : "";
      L.tileLayer(settings.tiles.replace("{r}", retina), {
        maxZoom: settings.maxZoom, tileSize: 256, attribution: settings.attribution
      }).addTo(map);
      const bearing = document.getElementById("bearing");
      const pitch = document.getElementById("pitch");
      const image = document.getElementById("tilted");
      const link = document.getElementById("tilted-url");
      let timer = 0;
      function fixed(value) { return Number(value.toFixed(6)).toString(); }
      function update() {
        const centre = map.getCenter();
        location.replace("#" + map.getZoom() + "/" + fixed(centre.lat) + "/" + fixed(centre.lng));
        document.getElementById("bearing-value").textContent = bearing.value;
        document.getElementById("pitch-value").textContent = pitch.value;
        if (!settings.static) {
          document.getElementById("camera").hidden = true;
          return;
        }
        // The static endpoint counts zoom in 512-point tiles: one less than Leaflet.
        const zoom = Math.max(0, map.getZoom() - 1);
        const url = settings.static + fixed(centre.lng) + "," + fixed(centre.lat) + "," + zoom + "@" +
          bearing.value + "," + pitch.value + "/320x240.png";
        clearTimeout(timer);
        timer = setTimeout(function () {
          image.src = url;
          link.textContent = url;
        }, 150);
      }
      map.on("moveend", update);
      bearing.addEventListener("input", update);
      pitch.addEventListener("input", update);
      update();
    })();

    """#
}
