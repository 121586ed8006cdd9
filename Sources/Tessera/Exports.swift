// The modules Tessera's public API speaks in (cameras and coordinates, images and colours,
// styles, data sources, GL devices, the renderer, scene JSON), so that `import Tessera` alone
// is enough to use it.

@_exported import TesseraData
@_exported import TesseraGL
@_exported import TesseraGeo
@_exported import TesseraImage
@_exported import TesseraJSON
import TesseraNumbers
@_exported import TesseraRender
@_exported import TesseraStyle
