import Foundation
import TesseraCLI
import TesseraNumbers

_ = ProcessClock.start
ProcessEnd.endsWithoutTeardown(environment: ProcessInfo.processInfo.environment)
ProcessEnd.exit(TesseraCommandLine.run(Array(CommandLine.arguments.dropFirst())))
