import Foundation
import TesseraCLI
import TesseraNumbers

_ = ProcessClock.start
ProcessEnd.endsWithoutTeardown()
ProcessEnd.exit(TesseraCommandLine.run(Array(CommandLine.arguments.dropFirst())))
