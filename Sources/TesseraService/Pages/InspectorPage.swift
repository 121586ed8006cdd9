import Foundation
import TesseraJSON
import TesseraNumbers

/// A data set's inspector `/data/{id}/`: its TileJSON as a table, its vector layers and their
/// fields, and a map of its tiles as stored: images shown as they are (elevation data answers
/// a click with the height there), vector tiles decoded in the page and drawn one colour per
/// layer.
extension ServiceRouter {
  func inspectorPage(_ id: String, request: HTTPRequest) throws(ServiceError) -> String {
    let tileJSON = try dataTileJSON(id, request: request)
    let segment = HTML.segment(id)
    let format = tileJSON["format"]?.string ?? "pbf"
    let extensionName = format == "pbf" ? configuration.pbfAlias ?? "pbf" : format
    var rows: [String] = []
    for key in ["name", "description", "format", "encoding", "minzoom", "maxzoom", "bounds", "center", "attribution"] {
      guard let value = tileJSON[key] else { continue }
      let text = value.string ?? value.serialized()
      rows.append("<tr><th>\(key)</th><td>\(HTML.escape(text))</td></tr>")
    }
    var layers: [JSONValue] = []
    var layerRows: [String] = []
    for layer in tileJSON["vector_layers"]?.array ?? [] {
      guard let name = layer["id"]?.string else { continue }
      layers.append(.string(name))
      let fields = (layer["fields"]?.object?.keys ?? []).joined(separator: ", ")
      layerRows.append(
        "<tr><td><span data-layer=\"\(HTML.escape(name))\"></span>\(HTML.escape(name))</td>"
          + "<td class=\"muted\">\(HTML.escape(fields))</td></tr>")
    }
    let bounds = tileJSON["bounds"]?.array?.compactMap(\.number) ?? []
    let center = tileJSON["center"]?.array?.compactMap(\.number) ?? []
    let minZoom = tileJSON["minzoom"]?.number ?? 0
    let maxZoom = tileJSON["maxzoom"]?.number ?? 14
    let start: [Double] =
      center.count >= 2
      ? [center[1], center[0], min(max((center.count > 2 ? center[2] : minZoom) + 1, minZoom), maxZoom)]
      : bounds.count == 4
        ? [(bounds[1] + bounds[3]) / 2, (bounds[0] + bounds[2]) / 2, max(minZoom, 1)] : [0, 0, minZoom]
    let settings: JSONObject = [
      "id": .string(id), "format": .string(format),
      "tiles": .string("/data/\(segment)/{z}/{x}/{y}.\(extensionName)"),
      "elevation": tileJSON["encoding"] != nil ? .string("/data/\(segment)/elevation/") : .null,
      "minZoom": .number(minZoom), "maxZoom": .number(maxZoom), "layers": .array(layers),
      "center": [.number(start[0]), .number(start[1])], "zoom": .number(start[2]),
      "bounds": bounds.count == 4
        ? [[.number(bounds[1]), .number(bounds[0])], [.number(bounds[3]), .number(bounds[2])]] : .null,
    ]
    let layerTable =
      layerRows.isEmpty
      ? "" : "<h2>Vector layers</h2>\n<table class=\"legend\">\n\(layerRows.joined(separator: "\n"))\n</table>"
    let body = """
      <header><h1>\(HTML.escape(id))</h1><nav><a href="/">Index</a><a href="/data/\(segment).json">TileJSON</a></nav>\
      </header>
      <div class="split">
      <div class="map" id="map"></div>
      <aside>
      <table>
      \(rows.joined(separator: "\n"))
      </table>
      \(layerTable)
      <p id="picked" class="muted"></p>
      </aside>
      </div>
      \(HTML.data("inspector-settings", JSONValue.object(settings).serialized()))
      """
    return HTML.page(
      title: "\(id) · Tessera", body: body, styles: [.leafletStyle], scripts: [.leafletScript, .inspectorScript])
  }
}

/// The inspector's script: image tiles as a tile layer; vector tiles fetched, decoded (Mapbox
/// Vector Tile 2.1) and drawn on canvases; elevation read on click.
enum InspectorScript {
  static let text = #"""
    "use strict";
    (function () {
      const settings = JSON.parse(document.getElementById("inspector-settings").textContent);
      const map = L.map("map", { minZoom: 0, maxZoom: 22 });
      // The data's bounds when it declares them (zoomed in no further than its deepest tiles).
      if (settings.bounds) map.fitBounds(settings.bounds, { maxZoom: settings.maxZoom + 1 });
      else map.setView(settings.center, settings.zoom);
      function colour(name) {
        let hash = 0;
        for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) >>> 0;
        return "hsl(" + (hash % 360) + ", 70%, 45%)";
      }
      document.querySelectorAll("[data-layer]").forEach(function (swatch) {
        swatch.style.background = colour(swatch.getAttribute("data-layer"));
      });
      function url(coords) {
        return settings.tiles.replace("{z}", coords.z).replace("{x}", coords.x).replace("{y}", coords.y);
      }
      if (settings.format !== "pbf") {
        L.tileLayer(settings.tiles, { minNativeZoom: settings.minZoom, maxNativeZoom: settings.maxZoom }).addTo(map);
      } else {
        const VectorLayer = L.GridLayer.extend({
          createTile: function (coords, done) {
            const canvas = document.createElement("canvas");
            const size = this.getTileSize();
            canvas.width = size.x;
            canvas.height = size.y;
            const z = Math.min(Math.max(coords.z, settings.minZoom), settings.maxZoom);
            if (z !== coords.z) { setTimeout(function () { done(null, canvas); }, 0); return canvas; }
            fetch(url(coords)).then(function (response) {
              return response.status === 200 ? response.arrayBuffer() : null;
            }).then(function (buffer) {
              if (buffer) draw(canvas, decodeTile(new Uint8Array(buffer)));
              done(null, canvas);
            }).catch(function (error) { done(error, canvas); });
            return canvas;
          }
        });
        new VectorLayer({ minZoom: 0, maxZoom: 22 }).addTo(map);
      }
      if (settings.elevation) {
        map.on("click", function (event) {
          const z = Math.min(Math.max(map.getZoom(), settings.minZoom), settings.maxZoom);
          const point = event.latlng.wrap();
          fetch(settings.elevation + z + "/" + point.lng.toFixed(6) + "/" + point.lat.toFixed(6))
            .then(function (response) { return response.status === 200 ? response.json() : null; })
            .then(function (answer) {
              document.getElementById("picked").textContent = answer
                ? answer.elevation + " m at " + answer.latitude.toFixed(5) + ", " + answer.longitude.toFixed(5)
                : "no elevation here";
            });
        });
      }

      // Protocol buffers: varints, and the fields of a message.
      function fields(bytes, start, end, visit) {
        let at = start;
        function varint() {
          let value = 0, shift = 1, byte;
          do { byte = bytes[at++]; value += (byte & 0x7f) * shift; shift *= 128; } while (byte & 0x80 && at < end);
          return value;
        }
        while (at < end) {
          const key = varint(), type = key & 7, number = Math.floor(key / 8);
          if (type === 0) visit(number, varint());
          else if (type === 2) { const length = varint(); visit(number, null, at, at + length); at += length; }
          else if (type === 1) at += 8;
          else if (type === 5) at += 4;
          else return;
        }
      }
      function packedVarints(bytes, start, end) {
        const values = [];
        let at = start;
        while (at < end) {
          let value = 0, shift = 1, byte;
          do { byte = bytes[at++]; value += (byte & 0x7f) * shift; shift *= 128; } while (byte & 0x80 && at < end);
          values.push(value);
        }
        return values;
      }
      function decodeTile(bytes) {
        const layers = [];
        fields(bytes, 0, bytes.length, function (number, value, start, end) {
          if (number !== 3 || start === undefined) return;
          const layer = { name: "", extent: 4096, features: [] };
          fields(bytes, start, end, function (n, v, s, e) {
            if (n === 1) layer.name = new TextDecoder().decode(bytes.subarray(s, e));
            else if (n === 5) layer.extent = v;
            else if (n === 2) {
              const feature = { type: 0, geometry: [] };
              fields(bytes, s, e, function (fn, fv, fs, fe) {
                if (fn === 3) feature.type = fv;
                else if (fn === 4) feature.geometry = packedVarints(bytes, fs, fe);
              });
              layer.features.push(feature);
            }
          });
          layers.push(layer);
        });
        return layers;
      }
      function draw(canvas, layers) {
        const context = canvas.getContext("2d");
        context.lineWidth = 1;
        for (const layer of layers) {
          const scale = canvas.width / layer.extent;
          context.strokeStyle = context.fillStyle = colour(layer.name);
          for (const feature of layer.features) {
            const g = feature.geometry;
            let x = 0, y = 0, i = 0;
            context.beginPath();
            while (i < g.length) {
              const command = g[i] & 7, count = g[i] >> 3;
              i++;
              if (command === 7) { context.closePath(); continue; }
              for (let k = 0; k < count && i + 1 < g.length; k++) {
                x += (g[i] >>> 1) ^ -(g[i] & 1);
                y += (g[i + 1] >>> 1) ^ -(g[i + 1] & 1);
                i += 2;
                if (feature.type === 1) context.rect(x * scale - 1.5, y * scale - 1.5, 3, 3);
                else if (command === 1) context.moveTo(x * scale, y * scale);
                else context.lineTo(x * scale, y * scale);
              }
            }
            if (feature.type === 3) { context.globalAlpha = 0.25; context.fill(); context.globalAlpha = 1; }
            if (feature.type === 1) context.fill(); else context.stroke();
          }
        }
      }
    })();

    """#
}
