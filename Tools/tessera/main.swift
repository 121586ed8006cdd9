import Foundation
import TesseraCLI
import TesseraNumbers

_ = ProcessClock.start
exit(TesseraCommandLine.run(Array(CommandLine.arguments.dropFirst())))
