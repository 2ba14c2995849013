/// A format that answers many URL lookups in one read of its index (the native store), for
/// localizing a page: callers ask for the capability, not for a type.
package protocol BodyBatchLookup {
    /// Runs `body` with a lookup that answers, in order, the complete body each URL has.
    func withBodyLookups<T>(now: FileTime, _ body: (@escaping ([String], LoopRunner) -> [NativeStore.Body?]) -> T)
        throws -> T
}
