import CacheKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a finished process left: its exit status and everything it wrote.
public struct RunResult {
    public var status: Int32
    public var stdout: [UInt8]
    public var stderr: [UInt8]
    public var out: String { String(decoding: stdout, as: UTF8.self) }
    public var err: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs programs with arguments given as raw bytes (names that are not UTF-8 survive),
/// through posix_spawn, capturing stdout and stderr.
public enum Run {
    /// `argv[0]` is looked up on PATH. `environment` entries are added to the current ones.
    public static func bytes(_ argv: [[UInt8]], environment: [String: String] = [:], stdin: [UInt8]? = nil) -> RunResult
    {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        var inPipe: [Int32] = [0, 0]
        precondition(pipe(&outPipe) == 0 && pipe(&errPipe) == 0 && pipe(&inPipe) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in inPipe + outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, fd) }

        let cArgs: [UnsafeMutablePointer<CChar>?] =
            argv.map { arg in
                let p = UnsafeMutablePointer<CChar>.allocate(capacity: arg.count + 1)
                for (i, b) in arg.enumerated() { p[i] = CChar(bitPattern: b) }
                p[arg.count] = 0
                return p
            } + [nil]
        var env: [String: String] = [:]
        var e = environ
        while let entry = e.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") { env[String(text[..<eq])] = String(text[text.index(after: eq)...]) }
            e += 1
        }
        for (k, v) in environment { env[k] = v }
        let cEnv: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for arg in cArgs { arg?.deallocate() }
            for variable in cEnv { free(variable) }
            posix_spawn_file_actions_destroy(&actions)
        }
        var pid = pid_t()
        let rc = posix_spawnp(&pid, cArgs[0]!, &actions, nil, cArgs, cEnv)
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        precondition(
            rc == 0, "cannot run \(String(decoding: argv[0], as: UTF8.self)): \(String(cString: strerror(rc)))")
        if let stdin {
            var offset = 0
            while offset < stdin.count {
                let n = stdin.withUnsafeBytes { write(inPipe[1], $0.baseAddress! + offset, $0.count - offset) }
                if n <= 0 { break }
                offset += n
            }
        }
        close(inPipe[1])
        // Drain both pipes without deadlock: poll until both close.
        var out: [UInt8] = []
        var err: [UInt8] = []
        var fds = [
            pollfd(fd: outPipe[0], events: Int16(POLLIN), revents: 0),
            pollfd(fd: errPipe[0], events: Int16(POLLIN), revents: 0)
        ]
        var open = 2
        var buffer = [UInt8](repeating: 0, count: 65536)
        while open > 0 {
            _ = poll(&fds, nfds_t(fds.count), -1)
            for i in 0..<fds.count where fds[i].fd >= 0 && fds[i].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(fds[i].fd, $0.baseAddress!, $0.count) }
                if n > 0 {
                    if i == 0 { out += buffer[0..<n] } else { err += buffer[0..<n] }
                } else {
                    close(fds[i].fd)
                    fds[i].fd = -1
                    open -= 1
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return RunResult(status: code, stdout: out, stderr: err)
    }

    public static func command(_ argv: [String], environment: [String: String] = [:]) -> RunResult {
        bytes(argv.map { Array($0.utf8) }, environment: environment)
    }

    /// Whether a program is on PATH.
    public static func available(_ program: String) -> Bool {
        command(["sh", "-c", "command -v \(program)"]).status == 0
    }
}

/// A process left running while a test acts (an app holding its database open), with its
/// standard output readable line by line; killed and reaped by `kill()` or on deinit.
public final class Background {
    public let pid: pid_t
    private let output: UnsafeMutablePointer<FILE>
    private var reaped = false

    public init(_ argv: [String]) {
        var outPipe: [Int32] = [0, 0]
        precondition(pipe(&outPipe) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, outPipe[0])
        posix_spawn_file_actions_addclose(&actions, outPipe[1])
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer {
            for arg in cArgs { free(arg) }
            posix_spawn_file_actions_destroy(&actions)
        }
        var child = pid_t()
        let rc = posix_spawnp(&child, cArgs[0]!, &actions, nil, cArgs, environ)
        close(outPipe[1])
        precondition(rc == 0, "cannot run \(argv[0])")
        pid = child
        output = fdopen(outPipe[0], "r")!
    }

    /// The next line the process writes, without its newline; nil at end of output.
    public func readLine() -> String? {
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        guard getline(&line, &capacity, output) > 0, let line else { return nil }
        return String(cString: line).trimmingCharacters(in: ["\n"])
    }

    public func kill() {
        guard !reaped else { return }
        reaped = true
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        fclose(output)
    }

    deinit { kill() }
}

extension Run {
    /// Starts `argv` in the background (see `Background`).
    public static func start(_ argv: [String]) -> Background { Background(argv) }
}
