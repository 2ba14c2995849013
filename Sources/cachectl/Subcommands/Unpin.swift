import ArgumentParser
import CacheKit

/// `cachectl unpin PAGE...`: release the entries saved pages pinned.
struct Unpin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpin",
        abstract: "Release the cache entries a saved page was pointed at (prune keeps pinned entries).",
        discussion: """
            `localize` writing a page that points into a cachectl store (without --assets) pins \
            the entries it points at: prune keeps them whatever their age or the size cap while \
            the page exists. Deleting the page releases them at the next prune; unpin does it now.
            """)

    @Argument(help: "The saved pages (they may be deleted already).", completion: .file()) var pages: [String]
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if pages.isEmpty { throw ValidationError("give at least one page.") }
    }

    func run() throws {
        let opened = try Diagnostics.reporting { try NativeStore.open(store.root, create: false) }
        for page in RawArguments.paths(pages) {
            let absolute = page.canonicalFile
            let released = try Diagnostics.reporting { try opened.unpin(page: absolute.description) }
            Output.write("\(released)\t\(absolute.escaped)\n")
        }
    }
}
