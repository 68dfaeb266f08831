public import SkanSchema

/// One column of a postback row: a fixed column, or the column of a schema field (`f_`-free snake_case name).
public enum PostbackRowColumn: Hashable, Sendable {
    case fixed(PostbackColumn)
    case field(name: String, isFlag: Bool)

    /// The column's name in every output.
    public var name: String {
        switch self {
        case .fixed(let column): column.name
        case .field(let name, _): name
        }
    }
}
