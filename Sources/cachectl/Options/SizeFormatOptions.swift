import ArgumentParser
import CacheKit

/// How sizes are printed in text output, with du's flags and du's rule that the last of
/// `-b`, `-h`, `--si`, `-k`, `-m` and `-B` given wins (`du -sbh` is human-readable).
struct SizeFormatOptions: ParsableArguments {
    @Flag(name: [.customShort("b"), .long], help: "Print sizes as exact byte counts (in du, apparent sizes: du's -b).")
    var bytes = false

    @Flag(
        name: [.customShort("h"), .long],
        help: "Print sizes like 1.5K, 23M, 4.0G, in powers of 1024 (the default on a terminal).")
    var humanReadable = false

    @Flag(name: .customLong("si"), help: "Like -h, in powers of 1000 (4.1k, 5.1M).")
    var si = false

    @Flag(name: .customShort("k"), help: "Print sizes in KiB, rounded up (--block-size=1K).")
    var kibibytes = false

    @Flag(name: .customShort("m"), help: "Print sizes in MiB, rounded up (--block-size=1M).")
    var mebibytes = false

    @Option(
        name: [.customShort("B", allowingJoined: true), .customLong("block-size")], parsing: .unconditional,
        help: ArgumentHelp(
            """
            Print sizes in units of SIZE, rounded up: 1K, 4KiB, 1MB, or a unit alone (M, KB), which is then \
            printed after each size.
            """,
            valueName: "size"))
    var blockSize: String?

    func validate() throws {
        if let blockSize, case .failure(let refusal) = BlockSize.read(blockSize) {
            throw ValidationError(
                refusal.failure.message("--block-size", blockSize)
                    + " (a positive whole number and/or a unit, as du reads it: 512, 1K, 4KiB, 1MB, M, 0x1000)")
        }
    }

    enum Style: Equatable {
        /// Human-readable on a terminal, exact bytes otherwise.
        case automatic
        case bytes
        case human(base: Int64)
        case blocks(BlockSize)

        /// What a block-size spec asks for.
        init(_ spec: BlockSize.Spec) {
            switch spec {
            case .human(let base): self = .human(base: base)
            case .blocks(let block): self = .blocks(block)
            }
        }
    }

    /// The style the last size flag on the command line asks for.
    var style: Style {
        switch SizeFlags.last {
        case nil: return bytes ? .bytes : humanReadable ? .human(base: 1024) : si ? .human(base: 1000) : .automatic
        case "b": return .bytes
        case "h": return .human(base: 1024)
        case "si": return .human(base: 1000)
        case "k": return .blocks(BlockSize(size: 1024, suffix: ""))
        case "m": return .blocks(BlockSize(size: 1 << 20, suffix: ""))
        default:
            guard let blockSize, case .success(let spec) = BlockSize.read(blockSize) else { return .automatic }
            return Style(spec)
        }
    }

    /// Human sizes when asked, or by default when stdout is a terminal.
    var useHuman: Bool {
        switch style {
        case .automatic: return Output.stdoutIsTerminal
        case .human: return true
        case .bytes, .blocks: return false
        }
    }

    /// `format`, except that with no size flag and stdout not a terminal, sizes are du's
    /// default: blocks of `DU_BLOCK_SIZE`, `BLOCK_SIZE` or `BLOCKSIZE` (the first set; each
    /// also `human-readable` or `si`), else 512 bytes with `POSIXLY_CORRECT`, else 1 KiB.
    /// For `du -s`, whose lines are du's own.
    func formatAsDu(_ bytes: Int64) -> String {
        guard style == .automatic, !Output.stdoutIsTerminal else { return format(bytes) }
        let unsigned = UInt64(bitPattern: bytes)
        switch Self.duEnvironmentStyle {
        case .human(let base): return ByteCount.human(unsigned: unsigned, base: base)
        case .blocks(let block): return block.format(unsigned)
        default: return String(unsigned)
        }
    }

    /// du's default unit from its environment (`BlockSize.fromEnvironment`).
    static let duEnvironmentStyle = Style(BlockSize.fromEnvironment(Sys.environment))

    /// A size as the walk sums it: wrapping past Int64 as du's `uintmax_t` does, so it is
    /// shown unsigned (two sparse files of 5 EiB on a tmpfs: 11529215046068469760, as du).
    func format(_ bytes: Int64) -> String {
        let unsigned = UInt64(bitPattern: bytes)
        switch style {
        case .automatic: return Output.stdoutIsTerminal ? ByteCount.human(unsigned: unsigned) : String(unsigned)
        case .bytes: return String(unsigned)
        case .human(let base): return ByteCount.human(unsigned: unsigned, base: base)
        case .blocks(let block): return block.format(unsigned)
        }
    }
}
