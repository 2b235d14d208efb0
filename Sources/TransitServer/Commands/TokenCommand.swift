import ArgumentParser
import Foundation

/// `transit-server token add RIDER --sync-db ADDRESS`: makes a bearer token for a rider and
/// prints it (once: only its SHA-256 is kept).
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Bearer tokens of riders for /v1/sync.", subcommands: [AddToken.self])

    struct AddToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Make a new token for RIDER and print it (only its hash is kept).")

        @Argument(help: "The rider's id (1 to 200 bytes, no spaces).")
        var rider: String

        @Option(help: "Where riders' data is kept: sqlite:PATH or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.")
        var syncDb: String

        func validate() throws {
            if let problem = RiderAuthentication.problem(withRider: rider) { throw ValidationError(problem) }
            _ = try SyncStorageAddress(syncDb)
        }

        func run() async throws {
            do {
                let storage = try await SyncStorageAddress(syncDb).open()
                let token = RiderAuthentication.newToken()
                do {
                    let now = Int64(Date().timeIntervalSince1970 * 1000)
                    try await storage.addToken(rider: rider, tokenHash: RiderAuthentication.hash(token), now: now)
                } catch {
                    await storage.close()
                    throw error
                }
                await storage.close()
                print(token)
            } catch {
                FileHandle.standardError.write(Data("transit-server token add: \(error)\n".utf8))
                throw ExitCode(error is ServerConfigurationError ? 64 : 74)
            }
        }
    }
}
