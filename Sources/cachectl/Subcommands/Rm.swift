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
        let opened = try reporting { try NativeStore.open(store.root, create: false) }
        var failed = false
        for url in urls {
            do {
                if try !opened.remove(url: url) {
                    Output.error(StoreError.notFound(url).description)
                    failed = true
                }
            } catch let error as StoreError {
                Output.error(error.description)
                failed = true
            }
        }
        if failed { throw ExitStatus.failure }
    }
}
