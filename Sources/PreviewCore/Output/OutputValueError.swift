/// Why an `--output` value (or the options that go with it) was refused: one line for the command line.
public struct OutputValueError: Error, Equatable, CustomStringConvertible {
    public let description: String

    /// A refusal saying `description`.
    public init(_ description: String) { self.description = description }
}
