import ArgumentParser
import CacheKit

/// du's `--block-size`: blocks of a size, printed as a count rounded up, with the unit after
/// it when the spec named a unit alone (`-BM` prints `5M`, `-BKB` `254kB`).
struct BlockSize: Equatable {
    var size: UInt64
    var suffix: String

    init(size: UInt64, suffix: String) { (self.size, self.suffix) = (size, suffix) }

    /// What a spec asks for: `human-readable` and `si` (or a prefix of them), or blocks.
    enum Spec: Equatable {
        case human(base: Int64)
        case blocks(BlockSize)
    }

    /// A spec that is not one, with du's reason, and the size du keeps from it anyway (see
    /// `fromEnvironment`).
    struct Refusal: Error {
        var failure: GNUNumber.Failure
        var stored: UInt64?
    }

    /// A spec as du reads it (gnulib lib/human.c `humblock`): a leading `'` (thousands
    /// separators, which cachectl does not print) skipped; `human-readable` or `si`, or an
    /// unambiguous prefix of one (argmatch); else a number by `xstrtoumax` with base 0 and the
    /// suffixes `eEgGkKmMpPtTyYzZ0` (`010` is 8, `0x10` 16, `1m` a MiB, `KD` 1000), not 0.
    /// With no digit before its unit, the unit is printed after each count, as du prints it.
    static func read(_ text: String) -> Result<Spec, Refusal> {
        var spec = Substring(text)
        if spec.first == "'" { spec = spec.dropFirst() }
        let names: [(String, Spec)] = [("human-readable", .human(base: 1024)), ("si", .human(base: 1000))]
        if let exact = names.first(where: { $0.0 == spec }) { return .success(exact.1) }
        let prefixed = names.filter { $0.0.hasPrefix(spec) }
        if prefixed.count == 1 { return .success(prefixed[0].1) }
        let (stored, failure) = GNUNumber.unsignedAsStored(String(spec), suffixes: "eEgGkKmMpPtTyYzZ0")
        if let failure { return .failure(Refusal(failure: failure, stored: stored)) }
        guard let size = stored, size > 0 else { return .failure(Refusal(failure: .invalid, stored: nil)) }
        // No digit before the unit: du sets human_SI, and human_B / human_base_1024 by the
        // unit's last letters; the count is then printed with its unit's letters.
        let bytes = Array(spec.utf8)
        guard bytes.contains(where: { (0x30...0x39).contains($0) }) else {
            let last = bytes.last
            let hasB = last == UInt8(ascii: "B")
            let base1024 = !hasB || (bytes.count >= 2 && bytes[bytes.count - 2] == UInt8(ascii: "i"))
            return .success(.blocks(BlockSize(size: size, suffix: unitText(size, hasB: hasB, base1024: base1024))))
        }
        return .success(.blocks(BlockSize(size: size, suffix: "")))
    }

    /// The unit gnulib's `human_readable` prints for blocks of `size` without autoscaling:
    /// the power of the base that reaches the size, `k` for 1000, then `iB` or `B`.
    private static func unitText(_ size: UInt64, hasB: Bool, base1024: Bool) -> String {
        let base: UInt64 = base1024 ? 1024 : 1000
        let letters = Array(" KMGTPEZYRQ")
        var exponent = 0
        var power: UInt64 = 1
        while power < size {
            exponent += 1
            if exponent == 8 { break }  // exponent_max: the largest power printed is Y
            let (next, overflow) = power.multipliedReportingOverflow(by: base)
            if overflow { break }
            power = next
        }
        var text = ""
        if exponent > 0 { text.append(!base1024 && exponent == 1 ? "k" : letters[exponent]) }
        if hasB { text += base1024 && exponent > 0 ? "iB" : "B" }
        return text
    }

    /// du's unit from its environment (gnulib `human_options` on `DU_BLOCK_SIZE`, else
    /// `BLOCK_SIZE`, else `BLOCKSIZE`: the first that is set, even empty). A spec that is not
    /// one is not an error: du keeps the size `xstrtoumax` stored (`2x` is 2-byte blocks) or,
    /// with none or 0, its default (512 with `POSIXLY_CORRECT`, else 1 KiB), unit unprinted.
    static func fromEnvironment(_ environment: (String) -> String?) -> Spec {
        let fallback = BlockSize(size: environment("POSIXLY_CORRECT") != nil ? 512 : 1024, suffix: "")
        guard let text = ["DU_BLOCK_SIZE", "BLOCK_SIZE", "BLOCKSIZE"].lazy.compactMap(environment).first else {
            return .blocks(fallback)
        }
        switch read(text) {
        case .success(let spec): return spec
        case .failure(let refusal):
            guard let stored = refusal.stored, stored > 0 else { return .blocks(fallback) }
            return .blocks(BlockSize(size: stored, suffix: ""))
        }
    }

    /// `bytes` in these blocks, rounded up, with the unit when one was given alone.
    func format(_ bytes: UInt64) -> String {
        let blocks = bytes / size + (bytes % size == 0 ? 0 : 1)
        return String(blocks) + suffix
    }
}
