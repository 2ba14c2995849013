/// Reading NSKeyedArchiver archives (`$archiver`, `$objects`, `$top`) as nested values: every
/// `CF$UID` reference replaced by the object it names (cycles and depth bounded).
public enum KeyedArchive {
    /// The object `$top[key]` names (default `root`), references resolved; nil when the bytes
    /// are not a keyed archive.
    public static func decode(_ bytes: [UInt8], top key: String = "root") -> PlistValue? {
        guard let archive = BinaryPlist.parse(bytes), archive["$archiver"]?.string != nil,
            let objects = archive["$objects"]?.array, let top = archive["$top"]?[key]
        else { return nil }
        var visiting = Set<Int>()
        return resolve(top, objects, &visiting, depth: 0)
    }

    private static func resolve(_ value: PlistValue, _ objects: [PlistValue], _ visiting: inout Set<Int>, depth: Int)
        -> PlistValue
    {
        guard depth < 64 else { return .null }
        switch value {
        case .uid(let index):
            guard index >= 0, index < objects.count, !visiting.contains(index) else { return .null }
            if case .string("$null") = objects[index] { return .null }
            visiting.insert(index)
            defer { visiting.remove(index) }
            return resolve(objects[index], objects, &visiting, depth: depth + 1)
        case .array(let items):
            return .array(items.map { resolve($0, objects, &visiting, depth: depth + 1) })
        case .dict(let members):
            // NS.keys / NS.objects pairs (NSDictionary) become a plain dictionary.
            if case .array(let keys)? = members["NS.keys"], case .array(let values)? = members["NS.objects"],
                keys.count == values.count
            {
                var out: [String: PlistValue] = [:]
                for (k, v) in zip(keys, values) {
                    if case .string(let name) = resolve(k, objects, &visiting, depth: depth + 1) {
                        out[name] = resolve(v, objects, &visiting, depth: depth + 1)
                    }
                }
                return .dict(out)
            }
            if case .array(let items)? = members["NS.objects"] {
                return .array(items.map { resolve($0, objects, &visiting, depth: depth + 1) })
            }
            if let string = members["NS.string"], case .string = string { return string }
            if case .data(let bytes)? = members["NS.data"] { return .data(bytes) }
            if let time = members["NS.time"]?.double { return .date(time) }
            var out: [String: PlistValue] = [:]
            for (name, member) in members where name != "$class" {
                out[name] = resolve(member, objects, &visiting, depth: depth + 1)
            }
            return .dict(out)
        default:
            return value
        }
    }
}
