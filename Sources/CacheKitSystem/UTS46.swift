#if canImport(_FoundationICU)
    import _FoundationICU
#elseif canImport(Darwin)
    import Darwin
#endif

/// Unicode IDNA Compatibility Processing (UTS #46) ToASCII, with the options the URL
/// Standard's "domain to ASCII" uses (§3.3: CheckHyphens false, CheckBidi true,
/// CheckJoiners true, UseSTD3ASCIIRules false, Transitional_Processing false,
/// VerifyDnsLength false). ICU does the work: on Linux the copy Foundation ships
/// (`_FoundationICU`, whose Unicode data is the toolchain's), on Apple platforms the
/// system's `libicucore`. This file is the only one that calls ICU.
public enum UTS46 {
    /// The ASCII form of a domain given as UTF-8, or nil when UTS #46 reports an error the
    /// URL Standard does not waive (hyphen placement and DNS lengths are waived: CheckHyphens
    /// and VerifyDnsLength are false).
    public static func toASCII(_ domain: [UInt8]) -> [UInt8]? {
        guard let processor = processor.handle, domain.count < Int(Int32.max) / 4 else { return nil }
        var capacity = max(64, domain.count * 4 + 16)
        while true {
            var output = [UInt8](repeating: 0, count: capacity)
            var info = UIDNAInfo(
                size: Int16(MemoryLayout<UIDNAInfo>.size), isTransitionalDifferent: 0,
                reservedB3: 0, errors: 0, reservedI2: 0, reservedI3: 0)
            var status = U_ZERO_ERROR
            let length = domain.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    input.withMemoryRebound(to: CChar.self) { i in
                        out.withMemoryRebound(to: CChar.self) { o in
                            nameToASCII(
                                processor, i.baseAddress, Int32(i.count), o.baseAddress, Int32(o.count), &info, &status)
                        }
                    }
                }
            }
            if status == U_BUFFER_OVERFLOW_ERROR, Int(length) > capacity {
                capacity = Int(length) + 1
                continue
            }
            guard status.rawValue <= U_ZERO_ERROR.rawValue, length >= 0 else { return nil }
            guard info.errors & ~waived == 0 else { return nil }
            return Array(output[..<Int(length)])
        }
    }

    /// The Unicode version of ICU's data (major, minor): code points assigned after it are
    /// unknown to this IDNA, so hosts holding them fail.
    public static var unicodeVersion: (Int, Int) {
        var version: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        unicodeVersionOfData(&version)
        return (Int(version.0), Int(version.1))
    }

    /// Errors the URL Standard's options turn off: empty labels and lengths
    /// (VerifyDnsLength false), hyphens at the ends or in positions 3–4 (CheckHyphens false).
    private static let waived = UInt32(
        UIDNA_ERROR_EMPTY_LABEL | UIDNA_ERROR_LABEL_TOO_LONG | UIDNA_ERROR_DOMAIN_NAME_TOO_LONG
            | UIDNA_ERROR_LEADING_HYPHEN | UIDNA_ERROR_TRAILING_HYPHEN | UIDNA_ERROR_HYPHEN_3_4)

    /// One processor for the process: ICU's UIDNA objects are immutable after opening and
    /// documented safe for concurrent use.
    private final class Processor: @unchecked Sendable {
        // @unchecked Sendable: see above: ICU's UIDNA object is immutable and safe for concurrent use.
        let handle: OpaquePointer?
        init() {
            var status = U_ZERO_ERROR
            let options = UInt32(UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_NONTRANSITIONAL_TO_ASCII)
            let opened = openUTS46(options, &status)
            handle = status.rawValue <= U_ZERO_ERROR.rawValue ? opened : nil
        }
    }
    private static let processor = Processor()
}

#if canImport(_FoundationICU)
    // Foundation's ICU renames its entry points with a `swift_` prefix (urename.h).
    private func openUTS46(_ options: UInt32, _ status: UnsafeMutablePointer<UErrorCode>) -> OpaquePointer? {
        swift_uidna_openUTS46(options, status)
    }
    private func nameToASCII(
        _ idna: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ length: Int32, _ dest: UnsafeMutablePointer<CChar>?,
        _ capacity: Int32, _ info: UnsafeMutablePointer<UIDNAInfo>, _ status: UnsafeMutablePointer<UErrorCode>
    ) -> Int32 {
        swift_uidna_nameToASCII_UTF8(idna, name, length, dest, capacity, info, status)
    }
    private func unicodeVersionOfData(_ version: UnsafeMutablePointer<(UInt8, UInt8, UInt8, UInt8)>) {
        version.withMemoryRebound(to: UInt8.self, capacity: 4) { swift_u_getUnicodeVersion($0) }
    }
#else
    // Apple platforms: libicucore exports the C API under its plain names; its headers are not
    // public, so the few declarations needed are spelled here (uidna.h, utypes.h).
    private struct UErrorCode: Equatable { var rawValue: Int32 }
    private let U_ZERO_ERROR = UErrorCode(rawValue: 0)
    private let U_BUFFER_OVERFLOW_ERROR = UErrorCode(rawValue: 15)
    private struct UIDNAInfo {
        var size: Int16, isTransitionalDifferent: Int8, reservedB3: Int8, errors: UInt32, reservedI2: Int32,
            reservedI3: Int32
    }
    private let UIDNA_CHECK_BIDI = 4
    private let UIDNA_CHECK_CONTEXTJ = 8
    private let UIDNA_NONTRANSITIONAL_TO_ASCII = 0x10
    private let UIDNA_ERROR_EMPTY_LABEL = 1
    private let UIDNA_ERROR_LABEL_TOO_LONG = 2
    private let UIDNA_ERROR_DOMAIN_NAME_TOO_LONG = 4
    private let UIDNA_ERROR_LEADING_HYPHEN = 8
    private let UIDNA_ERROR_TRAILING_HYPHEN = 0x10
    private let UIDNA_ERROR_HYPHEN_3_4 = 0x20
    @_silgen_name("uidna_openUTS46")
    private func openUTS46(_ options: UInt32, _ status: UnsafeMutablePointer<UErrorCode>) -> OpaquePointer?
    @_silgen_name("uidna_nameToASCII_UTF8")
    private func nameToASCII(
        _ idna: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ length: Int32, _ dest: UnsafeMutablePointer<CChar>?,
        _ capacity: Int32, _ info: UnsafeMutablePointer<UIDNAInfo>, _ status: UnsafeMutablePointer<UErrorCode>
    ) -> Int32
    @_silgen_name("u_getUnicodeVersion")
    private func unicodeVersionOfData(_ version: UnsafeMutablePointer<(UInt8, UInt8, UInt8, UInt8)>)
#endif
