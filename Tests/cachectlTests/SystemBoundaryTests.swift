import Foundation
import TestSupport
import XCTest

/// The system layer (`CacheKitSystem`) owns every file-system call: nothing above it may open,
/// stat, unlink, rename or remove by itself. Checked on what the compiler produced, not on
/// spelling: the undefined symbols of each object file of the modules above it (`nm -u`) must
/// not name a file-system function of libc, nor the C shims.
final class SystemBoundaryTests: XCTestCase {
    static let forbidden: Set<String> = [
        "open", "open64", "openat", "openat64", "creat", "creat64", "stat", "stat64", "lstat", "lstat64", "fstat",
        "fstat64",
        "fstatat", "fstatat64", "__xstat", "__lxstat", "__fxstat", "__fxstatat", "statx", "statvfs", "fstatvfs",
        "unlink", "unlinkat", "rmdir", "remove", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "mkdtemp",
        "mkstemp",
        "mkstemps", "mkstemp64", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat", "chown",
        "fchown",
        "lchown", "truncate", "ftruncate", "ftruncate64", "flock", "fcntl", "opendir", "fdopendir", "readdir",
        "readdir64",
        "closedir", "realpath", "readlink", "readlinkat", "utimensat", "futimens", "access", "faccessat", "close",
        "read",
        "write", "pread", "pread64", "pwrite", "fsync", "dup", "dup2", "lseek", "lseek64", "syscall", "fgetxattr",
        "getxattr",
        "cachectl_openat2", "cachectl_statx", "cachectl_renameat_noreplace", "cachectl_lock_holder",
        "cachectl_fgetxattr"
    ]

    private var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }
    private var buildFolder: URL { URL(fileURLWithPath: Binary.path).deletingLastPathComponent() }

    /// The Swift sources of a target and the undefined symbols of each one's object file.
    private func undefinedSymbols(_ target: String) throws -> [(source: String, symbols: Set<String>)] {
        let folder = packageRoot.appendingPathComponent("Sources/\(target)")
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path))
        var out: [(String, Set<String>)] = []
        for case let relative as String in enumerator where relative.hasSuffix(".swift") {
            let name = (relative as NSString).lastPathComponent
            let object = buildFolder.appendingPathComponent("\(target).build/\(name).o").path
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: object), "no object file for \(target)/\(relative) at \(object)")
            let nm = Run.command(["nm", "-u", object])
            XCTAssertEqual(nm.status, 0, nm.err)
            let symbols = Set(
                nm.out.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
            out.append(("\(target)/\(relative)", symbols))
        }
        return out
    }

    /// The descriptor table is sized for 1,024 descriptors before the process has a second
    /// thread (`cachectl_size_descriptor_table`, shims.c): grown later, on demand, each growth
    /// waits for an RCU grace period while other threads share the table. Read in
    /// `/proc/PID/status` (`FDSize`, the table's slots) of a `cachectl fetch` whose request
    /// has reached a listener that never answers: a fresh process has 64.
    func testTheDescriptorTableIsSizedBeforeAnyThreadStarts() throws {
        var limit = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit), 0)
        guard limit.rlim_cur >= 1024 else { throw XCTSkip("the soft limit on descriptors is \(limit.rlim_cur)") }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { _ = close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        XCTAssertTrue(listening)
        let tree = TestTree("descriptor-table")
        let url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/waits"
        let fetch = Run.start([Binary.path, "fetch", "--cache", tree.path("store").description, url])
        defer { fetch.kill() }
        // A connection waiting to be taken: the process is well past its start.
        var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&ready, 1, 60_000), 1, "fetch never connected")
        let status = try String(contentsOfFile: "/proc/\(fetch.pid)/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("FDSize:") })
        let slots = try XCTUnwrap(Int(line.dropFirst("FDSize:".count).trimmingCharacters(in: .whitespaces)))
        XCTAssertGreaterThanOrEqual(slots, 1024, "grown while the process ran, not before")
    }

    func testOnlyTheSystemLayerCallsFileSystemFunctions() throws {
        try XCTSkipUnless(Run.available("nm"), "nm (binutils) is not installed")
        // Every module above the system layer: CacheKit's layers, URLs, page rewriting, the CLI.
        let targets = [
            "CacheKitSupport", "CacheKitFiles", "CacheKitStore", "CacheKitWalk", "CacheKitPrune", "CacheKitFetch",
            "CacheKit", "URLStandard", "PageRewrite", "cachectl"
        ]
        for target in targets {
            let files = try undefinedSymbols(target)
            XCTAssertGreaterThan(files.count, 1, target)
            for (source, symbols) in files {
                let calls = symbols.intersection(Self.forbidden)
                XCTAssertTrue(
                    calls.isEmpty,
                    "\(source) calls \(calls.sorted()) directly: go through CacheKitSystem's Sys wrappers")
            }
        }
        // Not vacuous: the system layer itself does call them.
        let system = try undefinedSymbols("CacheKitSystem").reduce(into: Set<String>()) { $0.formUnion($1.symbols) }
        for symbol in ["unlinkat", "fstatat", "cachectl_openat2", "renameat", "close"] {
            XCTAssertTrue(system.contains(symbol), "the system layer should call \(symbol)")
        }
    }
}
