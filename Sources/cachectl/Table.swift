/// A plain text table: columns padded to their widest cell, numbers right-aligned.
struct Table {
    enum Alignment { case left, right }
    var alignments: [Alignment]
    var rows: [[String]] = []

    init(_ alignments: [Alignment]) { self.alignments = alignments }

    mutating func add(_ row: [String]) { rows.append(row) }

    /// The rendered lines; the last column is never padded (it holds paths).
    func render() -> String {
        var widths = [Int](repeating: 0, count: alignments.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count - 1 {
                widths[index] = max(widths[index], cell.count)
            }
        }
        var out = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                if index == row.count - 1 {
                    line += cell
                    break
                }
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                line += alignments[index] == .right ? padding + cell : cell + padding
                line += "  "
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}
