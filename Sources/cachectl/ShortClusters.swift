import ArgumentParser
import CacheKit

/// du's short-option clusters that end in an option with its value (`-sxB1`, `-sd1`,
/// `-sht1M`), which the argument parser reads only when the option comes first: split into
/// the flags and the option (`-sx`, `-B1`). Only for `du`, only before `--`.
enum ShortClusters {
    static let valueLetters: Set<Character> = ["B", "d", "t"]

    static func split(_ arguments: [String]) -> [String] {
        guard arguments.first == "du" else { return arguments }
        var out: [String] = []
        var ended = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" { ended = true }
            // `-t -500K` (du's negative threshold): the value is not an option.
            if !ended, argument == "-t" || argument == "--threshold", index < arguments.count,
                arguments[index].hasPrefix("-"), arguments[index].dropFirst().first?.isNumber == true
            {
                out.append("--threshold=" + arguments[index])
                index += 1
                continue
            }
            guard !ended, argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2,
                let second = argument.dropFirst().first, !second.isNumber
            else {
                out.append(argument)
                continue
            }
            let letters = Array(argument.dropFirst())
            if let index = letters.indices.dropFirst().first(where: { valueLetters.contains(letters[$0]) }),
                !valueLetters.contains(letters[0])
            {
                out.append("-" + String(letters[..<index]))
                out.append("-" + String(letters[index...]))
            } else {
                out.append(argument)
            }
        }
        return out
    }
}
