/// A fatal diagnostic is thrown: the compile stops and nothing is written.
extension Diagnostic: Error, CustomStringConvertible {
    public var description: String { formatted }
}
