/// The name of the Swift file generated for a schema, from the schema's path below the target:
/// `Shop.skan` → `Shop.swift`, `Store/Shop.skan` → `Store.Shop.swift`. Every path gets its own name, so two
/// schemas never write the same file: `_` becomes `__`, `.` becomes `_.`, and `/` becomes `.`; read left to
/// right, `__`, `_.` and `.` each stand for one character, so the name gives the path back.
/// (Compiled into SkancCLITests too, through a link, where the mapping is tested.)
enum GeneratedFileName {
    static func forSchema(atRelativePath path: String) -> String {
        let stem = path.hasSuffix(".skan") ? String(path.dropLast(5)) : path
        var name = ""
        for character in stem {
            switch character {
            case "_": name += "__"
            case ".": name += "_."
            case "/": name += "."
            default: name.append(character)
            }
        }
        return name + ".swift"
    }
}
