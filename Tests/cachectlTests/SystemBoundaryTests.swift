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
