/// What kind of unit a cache breakdown line stands for.
public enum CacheUnitKind: String, Sendable {
    /// A directory holding a valid `CACHEDIR.TAG`: everything below it is one cache.
    case tagged
    /// A directory whose marker files or name declare a recognised layout, at any depth
    /// (found in the same walk): everything below it is one cache.
    case recognised
    /// An immediate subdirectory of the walked root, untagged.
    case directory
    /// The root's own blocks and the files directly inside it.
    case rootFiles
}
