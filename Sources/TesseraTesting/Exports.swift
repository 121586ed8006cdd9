// `import TesseraTesting` is enough to write a snapshot test: the scenes, maps, cameras and
// options a snapshot is made of come from Tessera, re-exported here.
@_exported import Tessera
import TesseraNumbers
