import ArgumentParser
import TransitRuntime

struct InfoCommand: BundleQuestion {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "What a bundle holds.")

    @OptionGroup var options: BundleOptions

    func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply { try Query.info.answer(from: bundle).reply }
}
