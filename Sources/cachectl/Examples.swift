/// The EXAMPLES every command's help ends with (appended by the entry point to the parser's
/// help text: the parser has no such section).
enum Examples {
    static let byCommand: [String: [(command: String, says: String)]] = [
        "cachectl": [
            ("cachectl du", "what each cache under ~/.cache is, its size and how much is stale"),
            ("cachectl prune ~/.cache/pip --max-size 2G", "trim pip's cache by pip's own rules"),
            ("cachectl localize page.html -o offline.html", "point a saved page's images at cached copies")
        ],
        "du": [
            ("cachectl du", "the caches under the default cache root, largest first"),
            ("cachectl du -sh ~/.cache/pip ~/.npm/_cacache", "one human-readable total per cache, as du -sh"),
            ("cachectl du -d1 --si /var/cache", "every directory one level down, in powers of 1000"),
            ("cachectl du -sck ~/.cache/*", "KiB totals and a grand total, as du -sck"),
            ("cachectl du --json ~/.cache", "the same as one JSON object")
        ],
        "prune": [
            ("cachectl prune", "apply the configuration file's tables, when one exists (else the default store)"),
            (
                "cachectl prune ~/.cache/myapp --max-size 500M",
                "expired and corrupted entries, then LRU to the owner's share of 500M"
            ),
            (
                "cachectl prune ~/.cache/pip --max-age 1M --dry-run",
                "what going older than a month would delete, deleting nothing"
            ),
            ("cachectl prune ~/.cache/thumbnails --max-age '1 week 3 days' -h", "by age, sizes human-readable"),
            (
                "cachectl prune ~/Downloads/cache --format plain --max-size 0B",
                "empty a folder declared plain, on purpose"
            )
        ],
        "localize": [
            (
                "cachectl localize page.html -o offline.html",
                "images found in the caches made local; nothing else changed"
            ),
            (
                "cachectl localize https://example.org/a.html --fetch --output-dir saved",
                "fetch the page and its images, save it with saved/a_files/"
            ),
            (
                "cachectl localize page.html --in-place --styles --fetch",
                "also save its stylesheets, fonts and backgrounds"
            ),
            ("cat page.html | cachectl localize - --base-url https://example.org/ > out.html", "from stdin")
        ],
        "fetch": [
            ("cachectl fetch https://example.org/logo.png", "download into the store unless a fresh copy is there"),
            ("cachectl fetch --input urls.txt --jobs 8 --retry 3", "many at once, retrying failures"),
            ("cachectl fetch https://example.org/a.css -o a.css", "store and also write it to a file")
        ],
        "ls": [
            ("cachectl ls", "the entries of the default store"),
            ("cachectl ls ~/.cache/pip --state expired -h", "pip's expired entries, human-readable sizes"),
            ("cachectl ls ~/.cache/myapp --json", "every entry as JSON")
        ],
        "put": [
            (
                "cachectl put https://example.org/a.png a.png --expires 7d",
                "store a local file as the body of a URL for a week"
            )
        ],
        "cat": [("cachectl cat https://example.org/a.png > a.png", "the cached body, if fresh (exit 1 otherwise)")],
        "rm": [("cachectl rm https://example.org/a.png", "remove an entry: row and body together")],
        "clear": [("cachectl clear ~/.cache/myapp", "every entry, keeping the root, its tag and an empty index")],
        "schedule": [
            (
                "cachectl schedule --daily -- /home/me/.cache/pip --max-size 2G",
                "write a daily systemd user timer for that prune"
            ),
            ("cachectl schedule --weekly --print -- --max-age 1M", "print the units instead of writing them")
        ],
        "config": [("cachectl config check", "check /etc/cachectl/config.toml and ~/.config/cachectl/config.toml")],
        "check": [
            ("cachectl config check ~/.config/cachectl/config.toml", "syntax, keys and values, with line numbers")
        ],
        "unpin": [("cachectl unpin saved/page.html", "let prune take the entries a saved page pointed at")]
    ]

    /// The section for the command the arguments name (the root's when none).
    static func section(for arguments: [String]) -> String {
        let names = arguments.filter { !$0.hasPrefix("-") && $0 != "help" }
        let command = names.first.flatMap { byCommand[$0] != nil ? $0 : nil } ?? "cachectl"
        guard let examples = byCommand[command] else { return "" }
        var text = "EXAMPLES:\n"
        for example in examples {
            text += "  " + example.command + "\n      " + example.says + "\n"
        }
        return text
    }
}
