import Foundation
import XCTest

/// Runs the real `cachectl` binary that `swift test` built.
public enum Binary {
    /// The binary: `CACHECTL_BINARY` when set, else the one beside the test bundle.
    public static var path: String {
        if let override = ProcessInfo.processInfo.environment["CACHECTL_BINARY"] { return override }
        // The test bundle sits in the same build folder as the executable.
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let p = candidate.appendingPathComponent("cachectl").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return bundle.appendingPathComponent("cachectl").path
    }

    /// Runs `cachectl ARGS` (as `user` when given), checking any `--json` output against its schema.
    public static func run(_ args: [String], as user: String? = nil, environment: [String: String] = [:]) -> RunResult {
        runBytes(args.map { Array($0.utf8) }, as: user, environment: environment)
    }

    /// `run` with arguments as raw bytes (paths that are not UTF-8).
    public static func runBytes(_ args: [[UInt8]], as user: String? = nil, environment: [String: String] = [:])
        -> RunResult
    {
        var argv = [Array((user == nil ? path : worldReadableCopy).utf8)] + args
        if let user { argv = Privilege.prefix(user) + argv }
        let result = Run.bytes(argv, environment: environment)
        validateJSON(args, result)
        return result
    }

    /// Every `--json` output of every end-to-end test is checked against its command's schema
    /// in `docs/schema/` (a usage error, exit 2, prints none).
    private static func validateJSON(_ args: [[UInt8]], _ result: RunResult) {
        let words = args.map { String(decoding: $0, as: UTF8.self) }
        guard let command = words.first, JSONSchemas.commands.contains(command), words.contains("--json"),
            result.status != 2, !result.stdout.isEmpty
        else { return }
        let errors = JSONSchemas.errors(in: result.stdout, command: command)
        if !errors.isEmpty {
            XCTFail(
                "cachectl \(words.joined(separator: " ")) printed JSON its schema (\(JSONSchemas.path(for: command))) "
                    + "rejects:\n" + errors.joined(separator: "\n") + "\n\(result.out.prefix(2000))")
        }
    }

    /// A copy of the binary another user can execute (the checkout may sit under /root).
    public static let worldReadableCopy: String = {
        let dir = copyDirectory
        _ = Run.command(["mkdir", "-p", dir])
        _ = Run.command(["cp", path, dir + "/cachectl"])
        _ = Run.command(["chmod", "755", dir, dir + "/cachectl"])
        // Removed when the test process exits (a release-sized copy is ~100 MB).
        atexit {
            unlink(Binary.copyDirectory + "/cachectl")
            rmdir(Binary.copyDirectory)
        }
        return dir + "/cachectl"
    }()

    private static var copyDirectory: String { "/tmp/cachectl-e2e-bin-\(getpid())" }
}

/// Running a command as an unprivileged user, for permission tests when the suite runs as root.
public enum Privilege {
    public static var isRoot: Bool { geteuid() == 0 }
    public static func prefix(_ user: String) -> [[UInt8]] {
        ["setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"].map { Array($0.utf8) }
    }
}
