import ArgumentParser
import CacheKit

/// `cachectl put URL FILE`: store a local file in the native store.
struct Put: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Store a local file as the cached body of a URL.")

    @Argument(help: "The URL the body belongs to.") var url: String
    @Argument(help: "The file holding the body.", completion: .file()) var file: String
    @Option(
        name: .long, parsing: .unconditional,
        help: "Lifetime, a systemd time span: 90s, 15min, 12h, 7d, 2w, 1M (default: never expires).",
        transform: TimeSpan.parse)
    var expires: TimeSpan?
    @Flag(name: .long, help: "Move the expiry to now + lifetime on every hit.") var sliding = false
    @Option(name: .long, help: "The body's content type.") var contentType: String?
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if sliding && expires == nil { throw ValidationError("--sliding needs --expires.") }
    }

    func run() throws {
        let path = RawArguments.paths([url, file])[1]
        var options = PutOptions(lifetime: expires?.seconds, sliding: sliding, contentType: contentType)
        options.contentType = contentType
        let record = try Diagnostics.reporting {
            guard URLKey(url) != nil else { throw StoreError.notAURL(url) }
            guard path.exists else { throw StoreError.cannotRead(path, "No such file or directory") }
            return try NativeStore.open(store.root, create: true).put(url: url, file: path, options: options)
        }
        Output.write(
            "\(Text.show(record.url))\t\(record.apparentBytes)\t\(store.root.appending(record.bodyPath).escaped)\n")
    }
}
