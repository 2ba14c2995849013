// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "cachectl",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "CacheKit", targets: ["CacheKit"]),
        .executable(name: "cachectl", targets: ["cachectl"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.29.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0")
    ],
    targets: [
        // libxml2 2.15.3, carried in the package (Sources/CLibXML2/README.md says why and
        // which files): its HTML parser, behind one shim.
        .target(
            name: "CLibXML2",
            exclude: ["libxml2/Copyright", "libxml2/codegen", "README.md"],
            sources: ["libxml2"],
            cSettings: [.headerSearchPath("libxml2/include")]
        ),
        // zlib, to undo a gzip or deflate content coding a server sends unasked (fetch only).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The system calls Swift cannot import (openat2, statx, renameat2 go through the
        // variadic `syscall`), as plain C functions. Only CacheKitSystem uses them.
        .target(name: "CSystemShims"),
        // Every system call of the package: thin wrappers, owned descriptors, raw byte paths,
        // and the one deletion engine (descriptor-anchored, beneath-resolved).
        // UTS #46 (IDNA) comes from the ICU that Foundation ships on Linux (`_FoundationICU`),
        // and from the system's libicucore on macOS.
        .target(
            name: "CacheKitSystem",
            dependencies: ["CSystemShims"],
            linkerSettings: [
                .linkedLibrary("_FoundationICU", .when(platforms: [.linux])),
                .linkedLibrary("icucore", .when(platforms: [.macOS]))
            ]
        ),
        // The WHATWG URL Standard's parser and serializer (IDNA through CacheKitSystem's ICU).
        .target(name: "URLStandard", dependencies: ["CacheKitSystem"]),
        // Page rewriting: the start-tag scanner, libxml2's HTML parser, srcset and CSS
        // references, charsets and the rewriter. It knows no store: callers give it a lookup.
        .target(name: "PageRewrite", dependencies: ["CacheKitSystem", "URLStandard", "CLibXML2"]),
        // CacheKit's layers, each a module that uses only those below it (the compiler keeps
        // the order; crossings between layers are `package` declarations):
        // Support < Files < Store < Walk, Prune, Fetch < CacheKit.
        // Dates, HTTP dates and Cache-Control, CACHEDIR.TAG.
        .target(name: "CacheKitSupport", dependencies: ["CacheKitSystem", "URLStandard", "PageRewrite"]),
        // File trees and file identity.
        .target(name: "CacheKitFiles", dependencies: ["CacheKitSupport"]),
        // The native store and every cache format it recognises.
        .target(
            name: "CacheKitStore",
            dependencies: [
                "CacheKitFiles",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the batch body lookups (NativeStore+Bodies.swift only).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto")
            ]
        ),
        // Measuring (du) and the caches' state summaries.
        .target(name: "CacheKitWalk", dependencies: ["CacheKitStore"]),
        // Pruning and clearing.
        .target(
            name: "CacheKitPrune",
            dependencies: [
                "CacheKitStore",
                // The prune configuration file (PruneConfiguration.swift only).
                .product(name: "TOMLKit", package: "TOMLKit")
            ]
        ),
        // Fetching by HTTP's caching rules.
        .target(
            name: "CacheKitFetch",
            dependencies: [
                "CacheKitStore",
                "CZlib",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio")
            ]
        ),
        // Localizing pages, and the library's public face: it re-exports every layer.
        .target(
            name: "CacheKit",
            dependencies: ["CacheKitWalk", "CacheKitPrune", "CacheKitFetch"]
        ),
        .executableTarget(
            name: "cachectl",
            dependencies: [
                "CacheKit",
                "CacheKitSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        // Fixture trees and a process runner shared by both test targets.
        .target(
            name: "TestSupport", dependencies: ["CacheKit", "CacheKitSystem"], path: "Tests/TestSupport",
            exclude: ["httpd.py", "framings.py", "schema_check.py"]),
        .testTarget(
            name: "CacheKitTests",
            dependencies: [
                "CacheKit", "CacheKitSupport", "CacheKitFiles", "CacheKitStore", "CacheKitWalk", "CacheKitPrune",
                "CacheKitFetch",
                "CacheKitSystem", "URLStandard", "PageRewrite", "TestSupport"
            ],
            exclude: ["Localize/FuzzRegressions"]),
        // End-to-end tests: run the built `cachectl` binary (built by `swift test`).
        .testTarget(
            name: "cachectlTests",
            dependencies: ["CacheKit", "CacheKitStore", "CacheKitPrune", "CacheKitSystem", "TestSupport"])
    ],
    swiftLanguageModes: [.v6]
)
