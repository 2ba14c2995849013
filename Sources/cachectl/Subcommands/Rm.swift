import ArgumentParser
import CacheKit

/// `cachectl rm URL...`: remove entries from the native store.
struct Rm: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove the entries of URLs (index row and body together).")

    @Argument(help: "The URLs.") var urls: [String]
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if urls.isEmpty { throw ValidationError("give at least one URL.") }
    }

    func run() throws {
        let opened = try Diagnostics.reporting { try NativeStore.open(store.root, create: false) }
        for url in urls {
            do {
                if try !opened.remove(url: url) { Diagnostics.error(StoreError.notFound(url)) }
            } catch let error as StoreError {
                Diagnostics.error(error)
            }
        }
    }
}
