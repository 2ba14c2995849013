import CacheKit
import Foundation

/// The loopback HTTP server of `httpd.py` (routes documented there), started on a free port
/// on 127.0.0.1 (or another loopback address) and stopped when dropped.
public final class TestHTTPServer {
    public let port: Int
    public let root: RawPath
    private let process: Process

    /// Whether it speaks HTTPS.
    public let secure: Bool
    /// The address it listens on.
    public let host: String

    /// Serves the files of `root` under `/files/`; with `tls` (certificate and key PEM
    /// files), over HTTPS. `script` names another server of this folder speaking the same
    /// way (`framings.py`); `host`, the loopback address it listens on (`httpd.py` only).
    public init(
        root: RawPath, tls: (certificate: String, key: String)? = nil, script: String = "httpd.py",
        host: String = "127.0.0.1"
    ) throws {
        secure = tls != nil
        self.host = host
        self.root = root
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(script).path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", script, "--root", root.description] + (tls.map { ["--tls", $0.certificate, $0.key] } ?? [])
            + (host == "127.0.0.1" ? [] : ["--host", host])
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) {
            line += byte
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw NSError(
                domain: "TestHTTPServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "server did not start"])
        }
        self.port = port
    }

    deinit { stop() }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    public func url(_ path: String) -> String { (secure ? "https" : "http") + "://\(host):\(port)\(path)" }

    /// Every request path the server has seen (excluding this query).
    public func requests() -> [String] {
        let result = Run.bytes(
            [
                "python3", "-c",
                """
                import urllib.request,ssl,sys;sys.stdout.write(urllib.request.urlopen(sys.argv[1], \
                context=ssl._create_unverified_context()).read().decode())
                """,
                url("/__requests")
            ].map { Array($0.utf8) })
        return (try? JSONDecoder().decode([String].self, from: Data(result.stdout))) ?? []
    }

    /// How many requests asked for exactly `path`.
    public func count(_ path: String) -> Int { requests().filter { $0 == path }.count }
}
