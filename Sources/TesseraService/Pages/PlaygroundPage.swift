import Foundation
import Tessera
import TesseraJSON
import TesseraNumbers

/// The Static Maps playground `/playground/`: a form of the Static Maps API's parameters
/// (centre, zoom, size, scale, map type, heading, tilt, markers, paths, styling rules) that
/// writes the request URL and shows its image as the fields change. The page's own query
/// holds the form's state, so a playground URL can be shared.
extension ServiceRouter {
  func playgroundPage(_ request: HTTPRequest) -> String {
    // Where the map types start (the data Static Maps draws).
    let start =
      configuration.styles[MapType.normal.rawValue] != nil
      ? startingView(ofStyle: MapType.normal.rawValue) : (longitude: 0.0, latitude: 0.0, zoom: 15.0)
    let settings: JSONObject = [
      "center": .string("\(Self.pageNumber(start.latitude)),\(Self.pageNumber(start.longitude))"),
      "zoom": .number(max(1, (start.zoom + 1).rounded(.down))),
      "needsKey": .bool(configuration.keys != nil),
      "maxSize": .number(Double(min(configuration.maxWidth, configuration.maxHeight))),
      "maxScale": .number(configuration.maxScale),
    ]
    let types = ["roadmap", "satellite", "terrain", "hybrid"].map { "<option>\($0)</option>" }.joined()
    let body = """
      <header><h1>Static Maps playground</h1><nav><a href="/">Index</a></nav></header>
      <main class="playground">
      <form id="form" autocomplete="off">
      <label for="center">Centre (latitude,longitude or an address)</label><input type="text" id="center" name="center">
      <label for="zoom">Zoom</label><input type="number" id="zoom" name="zoom" min="0" max="22" step="1">
      <label for="size">Size (width×height, points)</label><input type="text" id="size" name="size" value="480x320">
      <label for="scale">Scale</label><select id="scale" name="scale"><option>1</option><option>2</option></select>
      <label for="maptype">Map type</label><select id="maptype" name="maptype">\(types)</select>
      <label for="heading">Heading <output id="heading-value"></output>°</label>
      <input type="range" id="heading" name="heading" min="0" max="359" step="1" value="0">
      <label for="tilt">Tilt <output id="tilt-value"></output>°</label>
      <input type="range" id="tilt" name="tilt" min="0" max="67" step="1" value="0">
      <label for="markers">Markers (one <code>markers=</code> value a line)</label>
      <textarea id="markers" name="markers"></textarea>
      <label for="path">Paths (one <code>path=</code> value a line)</label><textarea id="path" name="path"></textarea>
      <label for="style">Styling rules (one <code>style=</code> value a line)</label>
      <textarea id="style" name="style"></textarea>
      <label for="key" \(configuration.keys == nil ? "hidden" : "")>API key</label>
      <input type="text" id="key" name="key" \(configuration.keys == nil ? "hidden" : "")>
      </form>
      <section class="result">
      <p><a id="url" href="#"><code id="url-text"></code></a></p>
      <p id="error" class="notice" hidden></p>
      <img id="image" alt="the static map">
      </section>
      </main>
      \(HTML.data("playground-settings", JSONValue.object(settings).serialized()))
      """
    return HTML.page(title: "Static Maps playground · Tessera", body: body, scripts: [.playgroundScript])
  }
}

/// The playground's script: the form to a Static Maps URL, the URL to the image.
enum PlaygroundScript {
  static let text = #"""
    "use strict";
    (function () {
      const settings = JSON.parse(document.getElementById("playground-settings").textContent);
      const form = document.getElementById("form");
      const image = document.getElementById("image");
      const error = document.getElementById("error");
      const lists = ["markers", "path", "style"];
      const given = new URLSearchParams(location.search);
      const defaults = { center: settings.center, zoom: settings.zoom };
      for (const element of form.elements) {
        if (!element.name) continue;
        if (lists.includes(element.name)) {
          element.value = given.getAll(element.name).join("\n");
        } else if (given.has(element.name)) {
          element.value = given.get(element.name);
        } else if (defaults[element.name] !== undefined) {
          element.value = defaults[element.name];
        }
      }
      let timer = 0;
      let shown = "";
      function query() {
        const parameters = new URLSearchParams();
        for (const element of form.elements) {
          if (!element.name || element.hidden) continue;
          const value = element.value.trim();
          if (lists.includes(element.name)) {
            for (const line of value.split("\n")) if (line.trim()) parameters.append(element.name, line.trim());
          } else if (value !== "" && !(element.name === "heading" || element.name === "tilt") || value !== "0") {
            if (value !== "") parameters.append(element.name, value);
          }
        }
        return parameters.toString();
      }
      function update() {
        document.getElementById("heading-value").textContent = form.elements.heading.value;
        document.getElementById("tilt-value").textContent = form.elements.tilt.value;
        const search = query();
        const url = "/maps/api/staticmap?" + search;
        history.replaceState(null, "", "?" + search);
        document.getElementById("url-text").textContent = url;
        document.getElementById("url").href = url;
        clearTimeout(timer);
        timer = setTimeout(function () {
          if (url === shown) return;
          shown = url;
          // The image, or the server's reason when it refuses the request.
          fetch(url).then(function (response) {
            if (response.ok) return response.blob().then(function (blob) {
              if (image.src.startsWith("blob:")) URL.revokeObjectURL(image.src);
              image.src = URL.createObjectURL(blob);
              error.hidden = true;
            });
            return response.text().then(function (text) {
              error.textContent = response.status + ": " + text;
              error.hidden = false;
            });
          });
        }, 250);
      }
      form.addEventListener("input", update);
      form.addEventListener("submit", function (event) { event.preventDefault(); });
      update();
    })();

    """#
}
