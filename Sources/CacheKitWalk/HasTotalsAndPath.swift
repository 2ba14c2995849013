#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

protocol HasTotalsAndPath {
    var totals: UsageTotals { get }
    var path: RawPath { get }
}
