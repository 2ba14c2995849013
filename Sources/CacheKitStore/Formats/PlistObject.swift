import Foundation

/// A property list value as Foundation's parser returns it, re-encoded through
/// `PropertyListEncoder` (binary or XML).
///
/// `PropertyListSerialization.data(fromPropertyList:)` cannot be used to write: in release
/// builds on Linux (swift-corelibs-foundation, Swift 6.3) it rejects any array inside a
/// dictionary ("property lists cannot contain objects of type 'Not A Type'"), so pruning a
/// download cache whose items hold an array failed to rewrite its index; debug builds pass.
/// Every kind of value a plist holds is kept with its type: integers stay integers, reals
/// reals, booleans booleans (Foundation marks them with the `c` type code), dates dates.
enum PlistObject: Encodable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data(Data)
    case array([PlistObject])
    case dictionary([String: PlistObject])

    /// The value of a parsed plist object; nil for anything a plist cannot hold.
    init?(_ value: Any) {
        switch value {
        case let text as String: self = .string(text)
        case let date as Date: self = .date(date)
        case let bytes as Data: self = .data(bytes)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": self = .boolean(number.boolValue)
            case "d", "f": self = .real(number.doubleValue)
            default: self = .integer(number.int64Value)
            }
        case let elements as [Any]:
            var out: [PlistObject] = []
            for element in elements {
                guard let object = PlistObject(element) else { return nil }
                out.append(object)
            }
            self = .array(out)
        case let entries as [String: Any]:
            var out: [String: PlistObject] = [:]
            for (key, element) in entries {
                guard let object = PlistObject(element) else { return nil }
                out[key] = object
            }
            self = .dictionary(out)
        default: return nil
        }
    }

    /// The plist's bytes in `format` (binary, else XML).
    func encoded(_ format: PropertyListSerialization.PropertyListFormat) throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format == .binary ? .binary : .xml
        return try encoder.encode(self)
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .boolean(let flag): try container.encode(flag)
        case .date(let date): try container.encode(date)
        case .data(let bytes): try container.encode(bytes)
        case .array(let elements): try container.encode(elements)
        case .dictionary(let entries): try container.encode(entries)
        }
    }
}
