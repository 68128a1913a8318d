import ArgumentParser
import PreviewCore

/// on / off arguments.
enum Switch: String, ExpressibleByArgument, CaseIterable {
    case on, off
}

extension RepeatMode: ExpressibleByArgument {}
