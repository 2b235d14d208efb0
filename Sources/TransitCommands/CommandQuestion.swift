import ArgumentParser
import BundleFormat
import Foundation
import TransitJSON
import TransitRuntime

/// A `transit-query` subcommand asked with named parameters instead of an argument list: how
/// `transit-server` reads `GET /v1/NAME/COMMAND?OPTIONS`. Parameters are the command's long
/// option names without the dashes (`stop=A&stop=B&at=2026-03-30T08:00`), a flag is `=true`
/// (or `=false`), a positional argument goes by its name (`city?id=zurich`). The parameters
/// become the command's own arguments and ArgumentParser reads them, so the server takes
/// exactly the options, defaults and checks of the command line.
///
/// ```swift
/// let question = try CommandQuestion(command: "departures", parameters: [("stop", "GARE_01"), ("window", "30")])
/// let body = try question.reply(from: bundle, context: CommandContext(now: Date())).json()
/// ```
// The parsed command is a struct of strings, numbers and flags: safe to send.
public struct CommandQuestion: @unchecked Sendable {
    /// The subcommands that read a bundle, each asked this way.
    public static let commands: [String] = questionTypes.map { $0.configuration.commandName ?? "" }

    /// Options the command line takes that a request may not: the bundle is named by the
    /// path, the answer is always JSON, live data are the server's and so is the clock.
    public static let reserved: Set<String> = ["bundle", "json", "realtime", "now", "help", "version"]

    private static let questionTypes: [any BundleQuestion.Type] = [
        DeparturesCommand.self, ArrivalsCommand.self, StopsCommand.self, TripCommand.self, ShapeCommand.self, AgenciesCommand.self,
        RoutesCommand.self, RouteCommand.self, NearestCommand.self, TransfersCommand.self, InfoCommand.self, CityCommand.self,
        CitiesCommand.self, PlanCommand.self, FareCommand.self,
    ]

    /// The command's name.
    public let command: String
    /// The parsed subcommand.
    let parsed: any BundleQuestion

    /// True for the commands live data go into (departures, arrivals, plan).
    public var takesLiveData: Bool { ["departures", "arrivals", "plan"].contains(command) }

    /// The language `lang` asks names in (its canonical tag), if any.
    /// - Throws: `CommandFailure` (bad input) for text that is not a language tag.
    public var language: String? {
        get throws { try parsed.options.language() }
    }

    /// Reads the parameters as `command`'s options.
    /// - Throws: `CommandFailure` with kind `.notFound` for an unknown command, `.badInput`
    ///   for a parameter the command does not take, a bad value, or a missing one.
    public init(command: String, parameters: [(name: String, value: String)]) throws {
        guard let spec = Self.specs[command] else {
            throw CommandFailure(
                code: "unknown_command", message: "no command \"\(command)\" (commands: \(Self.commands.joined(separator: ", ")))",
                kind: .notFound)
        }
        var arguments: [String] = []
        var positionals: [String] = []
        for (name, value) in parameters {
            guard let kind = spec.parameters[name], !Self.reserved.contains(name) else {
                let taken = spec.parameters.keys.filter { !Self.reserved.contains($0) }.sorted().joined(separator: ", ")
                throw CommandFailure(
                    code: "bad_option",
                    message: "\(command) takes no parameter \"\(name)\" (it takes: \(taken.isEmpty ? "none" : taken))", kind: .badInput)
            }
            switch kind {
            case .flag:
                switch value {
                case "true", "": arguments.append("--" + name)
                case "false": break
                default:
                    throw CommandFailure(code: "bad_option", message: "\(name) is a flag: true or false, not \"\(value)\"", kind: .badInput)
                }
            case .option: arguments.append("--\(name)=\(value)")
            case .positional: positionals.append(value)
            }
        }
        if !positionals.isEmpty { arguments += ["--"] + positionals }
        do {
            // The subcommand's own parser (the root's would first build all of them), and a
            // memo of recent argument lists: ArgumentParser reads a command's properties by
            // reflection, which took most of a board's time over HTTP (docs/performance.md).
            self.parsed = try Self.parsedCommands.parsed(command: command, arguments: arguments) {
                try spec.type.parse(arguments) as any BundleQuestion
            }
            self.command = command
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure.usage(error)
                ?? CommandFailure(code: "bad_option", message: TransitQueryCommand.message(for: error), kind: .badInput)
        }
    }

    /// The reply, as `transit-query COMMAND --json` makes it.
    /// - Throws: what the command throws (`CommandFailure(error)` reads it).
    public func reply(from bundle: TransitBundle, context: CommandContext) throws -> CommandReply {
        try parsed.reply(from: bundle, context: context)
    }

    /// Argument lists parsed lately, and what they parsed to (a parse is a pure function of
    /// them). Cleared when full.
    private static let parsedCommands = ParsedCommands()

    // MARK: What each command takes

    /// How a parameter is passed to the command.
    public enum ParameterKind: Sendable {
        case option, flag, positional
    }

    /// One parameter of a command, as its help describes it.
    public struct Parameter: Sendable {
        /// The long name without dashes (a positional argument: its value name).
        public var name: String
        public var kind: ParameterKind
        /// The help line.
        public var help: String
        public var isRequired: Bool
        public var isRepeating: Bool
    }

    /// A command's abstract and parameters (without the reserved ones), for documents such as
    /// the server's OpenAPI description.
    public struct Spec: @unchecked Sendable {
        public var command: String
        let type: any BundleQuestion.Type
        public var abstract: String
        public var list: [Parameter]
        var parameters: [String: ParameterKind]
    }

    /// Every command's spec, in `commands` order.
    public static var specList: [Spec] { commands.compactMap { specs[$0] } }

    /// Read once from ArgumentParser's own description of each command (`--experimental-dump-help`).
    private static let specs: [String: Spec] = {
        var specs: [String: Spec] = [:]
        for type in questionTypes {
            let name = type.configuration.commandName ?? ""
            let error: any Error
            do {
                _ = try TransitQueryCommand.parseAsRoot([name, "--experimental-dump-help"])
                continue
            } catch let thrown {
                error = thrown
            }
            guard let document = try? JSONParser.parse(Array(TransitQueryCommand.message(for: error).utf8)),
                let command = document["command"], case .array(let arguments)? = command["arguments"]
            else { continue }
            var list: [Parameter] = []
            for argument in arguments {
                guard case .string(let kindName)? = argument["kind"] else { continue }
                let kind: ParameterKind
                let parameterName: String?
                switch kindName {
                case "flag", "option":
                    kind = kindName == "flag" ? .flag : .option
                    parameterName = argument["preferredName"]?["name"]?.stringValue
                default:
                    kind = .positional
                    parameterName = argument["valueName"]?.stringValue
                }
                guard let parameterName, !reserved.contains(parameterName) else { continue }
                list.append(
                    Parameter(
                        name: parameterName, kind: kind, help: argument["abstract"]?.stringValue ?? "",
                        isRequired: argument["isOptional"]?.boolValue == false, isRepeating: argument["isRepeating"]?.boolValue == true))
            }
            specs[name] = Spec(
                command: name, type: type, abstract: command["abstract"]?.stringValue ?? "", list: list,
                parameters: Dictionary(list.map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first }))
        }
        return specs
    }()
}

/// A bounded memo of parsed commands by command and argument list: at most `capacity`
/// lists of at most `maxKeyBytes` each (a longer one is parsed every time).
private final class ParsedCommands: @unchecked Sendable {
    private let lock = NSLock()
    private var parsed: [[String]: any BundleQuestion] = [:]
    static let capacity = 4_096
    static let maxKeyBytes = 512

    func parsed(command: String, arguments: [String], parse: () throws -> any BundleQuestion) throws -> any BundleQuestion {
        guard arguments.reduce(command.utf8.count, { $0 + $1.utf8.count }) <= Self.maxKeyBytes else { return try parse() }
        let key = [command] + arguments
        lock.lock()
        let known = parsed[key]
        lock.unlock()
        if let known { return known }
        let fresh = try parse()
        lock.lock()
        if parsed.count >= Self.capacity { parsed.removeAll(keepingCapacity: true) }
        parsed[key] = fresh
        lock.unlock()
        return fresh
    }
}
