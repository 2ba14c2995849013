import ArgumentParser
import CacheKit

/// Which of the size flags came last on the command line (`b`, `h`, `si`, `k`, `m`, `B`),
/// read from the raw arguments (the parser does not keep their order).
enum SizeFlags {
    static let last: String? = {
        var last: String?
        for token in RawArguments.strings {
            if token == "--" { break }
            if token.hasPrefix("--") {
                let name = token.dropFirst(2).prefix { $0 != "=" }
                switch name {
                case "bytes": last = "b"
                case "human-readable": last = "h"
                case "si": last = "si"
                case "block-size": last = "B"
                default: break
                }
            } else if token.hasPrefix("-"), token.count > 1 {
                // A cluster of short flags (`-sbh`); a letter that takes a value ends it.
                for letter in token.dropFirst() {
                    if "bhkm".contains(letter) {
                        last = String(letter)
                        continue
                    }
                    if letter == "B" { last = "B" }
                    if !"asxcl0SLPn".contains(letter) { break }
                }
            }
        }
        return last
    }()
}
