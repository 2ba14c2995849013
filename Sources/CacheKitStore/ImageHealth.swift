#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The state an image file's structure gives it, with the grace rule: a file cut short that
/// was written to within the grace period may still be being written (Kingfisher and Nuke
/// do not write atomically), so it is `incomplete` and left alone; older, `corrupted`.
enum ImageHealth {
    /// Nil when the file is whole or not an image.
    static func state(in anchor: AnchoredDirectory, _ file: FileTree.File, _ context: InspectionContext)
        -> (state: EntryState, reason: String, young: Bool)?
    {
        if file.apparentBytes == 0 { return cutShort("zero-length body", file, context) }
        return state(ImageSignature.verdict(in: anchor, file.anchorRelative, size: file.apparentBytes), file, context)
    }

    /// The state a verdict already reached gives the file.
    static func state(_ verdict: ImageSignature.Verdict, _ file: FileTree.File, _ context: InspectionContext)
        -> (state: EntryState, reason: String, young: Bool)?
    {
        state(verdict, lastWritten: file.lastWritten, context)
    }

    /// The same for a file last written at `lastWritten`.
    static func state(_ verdict: ImageSignature.Verdict, lastWritten: FileTime, _ context: InspectionContext)
        -> (state: EntryState, reason: String, young: Bool)?
    {
        switch verdict {
        case .notAnImage, .whole: return nil
        case .malformed(let why): return (.corrupted, why, false)
        case .cutShort(let why): return cutShort(why, lastWritten: lastWritten, context)
        }
    }

    private static func cutShort(_ why: String, _ file: FileTree.File, _ context: InspectionContext)
        -> (state: EntryState, reason: String, young: Bool)
    {
        cutShort(why, lastWritten: file.lastWritten, context)
    }

    private static func cutShort(_ why: String, lastWritten: FileTime, _ context: InspectionContext)
        -> (state: EntryState, reason: String, young: Bool)
    {
        if context.isOlderThanGrace(lastWritten) { return (.corrupted, why, false) }
        return (
            .incomplete,
            "\(why), last written \(NativeStore.age(lastWritten, context)) ago: a writer may still be at work "
                + "(within the grace period)", true
        )
    }
}
