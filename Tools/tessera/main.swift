import Foundation
import TesseraCLI

_ = ProcessClock.start
exit(TesseraCommandLine.run(Array(CommandLine.arguments.dropFirst())))
