import CacheKitSystem
import Foundation
import URLStandard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The rewritten page and the account of every reference.
public struct LocalizeResult: Sendable {
    /// The input bytes, except the values that were rewritten.
    public var output: [UInt8] { spliced.joined() }
    /// Every reference, in document order.
    public var references: [ImageReference] {
        referenceParts.count == 1 ? referenceParts[0] : Array(referenceParts.joined())
    }
    /// The charset the page was decoded with.
    public var charset: Charset.Decision
    /// True when `<base href>` was neutralised (and other relative references made absolute).
    public var baseNeutralized: Bool
    /// True when the output does not live at the page's URL, so the relative references not
    /// made local were made absolute against the page's base.
    public var referencesAbsolutized = false
    /// Bodies placed in the assets folder: as hard links (the cache's own bytes) and as copies.
    public var assetsLinked = 0
    /// Bodies copied into the assets folder. Default 0.
    public var assetsCopied = 0
    /// Bodies cloned into the assets folder (blocks shared with the cache's until either
    /// changes; btrfs, XFS). Default 0.
    public var assetsCloned = 0
    /// The URLs whose copies could not be placed in the assets folder: the page references
    /// the cache for them.
    public var assetsUnplaced: [String] = []
    /// Why the files placed in the assets folder could not be made durable (a failed flush:
    /// the page must not be committed pointing at them); nil when they are, or none were placed.
    public var assetsNotDurable: String?
    /// The output as the input and the edits to it, put together only when asked for.
    let spliced: PageRewriter.Spliced
    /// The references in order, in the parts they were found in (joined only when asked for).
    let referenceParts: [[ImageReference]]

    /// How many references had this outcome.
    public func count(_ outcome: ImageReference.Outcome) -> Int {
        // By index: a closure over the elements would copy each reference (its strings retained).
        var total = 0
        for part in referenceParts {
            for i in part.indices where part[i].outcome == outcome { total += 1 }
        }
        return total
    }

    /// How many references had each outcome (none: 0), counted in one pass: what a summary
    /// of several counts asks for (a pass for each read 40,000 references again each time).
    public var outcomeCounts: [ImageReference.Outcome: Int] {
        var (rewritten, missing, stale, skipped, local) = (0, 0, 0, 0, 0)
        for part in referenceParts {
            for i in part.indices {
                switch part[i].outcome {
                case .rewritten: rewritten += 1
                case .missing: missing += 1
                case .stale: stale += 1
                case .skipped: skipped += 1
                case .local: local += 1
                }
            }
        }
        return [.rewritten: rewritten, .missing: missing, .stale: stale, .skipped: skipped, .local: local]
    }

    /// The `localPath` of every reference with one of these outcomes, in order.
    public func localPaths(_ outcomes: ImageReference.Outcome...) -> [String] {
        strings(outcomes) { $0.localPath }
    }

    /// The resolved URLs of the references that had one of these outcomes, in document order.
    public func resolvedURLs(_ outcomes: ImageReference.Outcome...) -> [String] {
        strings(outcomes) { $0.resolved }
    }

    /// Calls `body` with the resolved URL of each reference that had one of these outcomes,
    /// in document order, without gathering them (a page may have tens of thousands).
    public func forEachResolvedURL(_ outcomes: ImageReference.Outcome..., body: (String) throws -> Void) rethrows {
        for part in referenceParts {
            for i in part.indices where outcomes.contains(part[i].outcome) {
                if let value = part[i].resolved { try body(value) }
            }
        }
    }

    /// One field of the references with these outcomes, where set, in document order (by
    /// index, as `count`: no reference is copied).
    private func strings(_ outcomes: [ImageReference.Outcome], _ field: (ImageReference) -> String?) -> [String] {
        var values: [String] = []
        for part in referenceParts {
            for i in part.indices where outcomes.contains(part[i].outcome) {
                if let value = field(part[i]) { values.append(value) }
            }
        }
        return values
    }

    /// Hands the output to `sink` in order, in pieces: a large page is written without being
    /// built whole in memory first.
    public func writeOutput(_ sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try spliced.write(sink)
    }

    /// How many bytes the output shares with the page as given, from its start (all of them
    /// when nothing changed).
    public var unchangedPrefix: Int { spliced.unchangedPrefix }

    /// `writeOutput` from byte `start` on (at most `unchangedPrefix`).
    public func writeOutput(from start: Int, _ sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try spliced.write(from: start, sink)
    }
}
