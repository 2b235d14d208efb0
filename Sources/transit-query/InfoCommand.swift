import ArgumentParser

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "What a bundle holds.")

    @OptionGroup var options: BundleOptions

    func run() throws {
        try options.ask { .info }
    }
}
