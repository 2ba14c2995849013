import Foundation

/// The JSON Schemas of the `--json` outputs (`docs/schema/<command>.schema.json`) and a
/// validator for them: `schema_check.py` with Python's `jsonschema`, one process for the
/// whole test run, asked one document at a time.
public enum JSONSchemas {
    /// The commands whose `--json` output has a schema.
    public static let commands: Set<String> = ["du", "ls", "prune", "clear", "fetch", "localize"]

    /// `docs/schema/<command>.schema.json` in this checkout.
    public static func path(for command: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("docs/schema/\(command).schema.json").path
    }

    /// What is wrong with `document` by `command`'s schema: empty when it conforms.
    public static func errors(in document: [UInt8], command: String) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try checker().ask(schema: path(for: command), document: String(decoding: document, as: UTF8.self))
        } catch {
            return [
                """
                cannot validate against \(path(for: command)): \(error) (Scripts/test-deps installs python3's \
                jsonschema)
                """
            ]
        }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var running: Checker?

    private static func checker() throws -> Checker {
        if let running, running.process.isRunning { return running }
        let started = try Checker()
        running = started
        return started
    }

    private final class Checker {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        var pending = Data()

        init() throws {
            signal(SIGPIPE, SIG_IGN)  // a validator that died is reported, not fatal
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "schema_check.py"
            ).path
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        struct Failure: Error, CustomStringConvertible {
            var description: String
        }

        func ask(schema: String, document: String) throws -> [String] {
            let request = try JSONSerialization.data(withJSONObject: ["schema": schema, "document": document])
            try input.fileHandleForWriting.write(contentsOf: request + Data([0x0A]))
            while !pending.contains(0x0A) {
                // What is there (read(upToCount:) would wait for all 64 KiB).
                let more = output.fileHandleForReading.availableData
                guard !more.isEmpty else {
                    throw Failure(description: "schema_check.py stopped (is python3's jsonschema installed?)")
                }
                pending += more
            }
            let end = pending.firstIndex(of: 0x0A)!
            let line = pending[pending.startIndex..<end]
            pending = Data(pending[(end + 1)...])
            guard let answer = try JSONSerialization.jsonObject(with: line) as? [String: Any],
                let errors = answer["errors"] as? [String]
            else {
                throw Failure(description: "schema_check.py answered \(String(decoding: line, as: UTF8.self))")
            }
            return errors
        }
    }
}
