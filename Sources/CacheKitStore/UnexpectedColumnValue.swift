/// A column that is NULL where a value must be. (An index another program or a person edited
/// can hold anything SQLite accepts.)
struct UnexpectedColumnValue: Error, CustomStringConvertible {
    let column: String

    var description: String { "column \(column) is NULL" }
}
