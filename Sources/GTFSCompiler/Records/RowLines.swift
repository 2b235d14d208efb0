/// The file line of each row of a table, for diagnostics, kept as the rows where the line
/// does not simply follow the row before (a dropped row, a blank line, a quoted field over
/// several lines, the header): a handful for most files instead of a line per row (85 MB
/// less at 21 million stop_times).
struct RowLines {
    /// The first row of each stretch of rows on consecutive lines, and its line.
    private var firstRows: [Int32] = []
    private var firstLines: [Int32] = []
    /// Rows appended so far.
    private(set) var count = 0

    /// Records the line of the next row.
    mutating func append(_ line: Int32) {
        if let row = firstRows.last, let first = firstLines.last, Int(line) - Int(first) == count - Int(row) {
            count += 1
            return
        }
        firstRows.append(Int32(count))
        firstLines.append(line)
        count += 1
    }

    /// The line of row `row` (0 ..< count).
    subscript(row: Int) -> Int32 {
        // The last stretch starting at or before `row`.
        var low = 0
        var high = firstRows.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if Int(firstRows[mid]) <= row { low = mid } else { high = mid }
        }
        return firstLines[low] + Int32(row - Int(firstRows[low]))
    }
}
