import Foundation

/// Debian's PostgreSQL on 127.0.0.1: a new cluster in a temporary folder (trust
/// authentication, fsync off: a test's data), started and stopped as the `postgres` user
/// (PostgreSQL refuses root), with one database. Stopped (`pg_ctl stop -m immediate`) when
/// released.
public final class PostgresServer: @unchecked Sendable {
    public let port: Int
    public let database: String
    private let folder: URL
    private let bin: String

    /// `postgres://postgres@127.0.0.1:PORT/DATABASE`.
    public var url: String { "postgres://postgres@127.0.0.1:\(port)/\(database)" }

    /// The server's programs, nil when PostgreSQL is not installed (`make deps` installs it).
    public static var binaries: String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root))?.compactMap(Int.init).sorted() ?? []
        return versions.last.map { "\(root)/\($0)/bin" }.flatMap { FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") ? $0 : nil }
    }

    public init(database: String = "transit") throws {
        guard let bin = Self.binaries else { throw ServerProcessError("PostgreSQL is not installed (make deps installs it)") }
        self.bin = bin
        self.database = database
        folder = TemporaryFolders.make()
        port = try ServerProcess.freePort()
        if getuid() == 0 { try Self.asPostgres("/bin/chown", ["postgres", folder.path], root: true) }
        try Self.asPostgres(bin + "/initdb", ["-D", folder.path + "/data", "-A", "trust", "-U", "postgres", "--no-sync"])
        try Self.asPostgres(
            bin + "/pg_ctl",
            ["-D", folder.path + "/data", "-o", "-p \(port) -k \(folder.path) -h 127.0.0.1 -F", "-l", folder.path + "/log", "-w", "start"])
        try Self.asPostgres(bin + "/createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", database])
    }

    deinit { stop() }

    /// Stops the server at once (its data is a test's).
    public func stop() {
        try? Self.asPostgres(bin + "/pg_ctl", ["-D", folder.path + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// Runs `tool` as the `postgres` user (as root when `root`), throwing on a non-zero exit.
    /// Spawned and waited for by hand: `Process` on Linux waits for every holder of a pipe it
    /// made to close it, and the server `pg_ctl start` leaves running holds one.
    private static func asPostgres(_ tool: String, _ arguments: [String], root: Bool = false) throws {
        let argv = root || getuid() != 0 ? [tool] + arguments : ["/usr/sbin/runuser", "-u", "postgres", "--", tool] + arguments
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("pg-tool-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw ServerProcessError("cannot run \(argv[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw ServerProcessError("\(tool) \(arguments.joined(separator: " ")): \(text)")
        }
    }
}
