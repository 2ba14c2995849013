extension Array {
    /// `reserveCapacity`, with transparent huge pages asked for behind the buffer when it is
    /// large (`Sys.adviseHugePages`): an array filled with a page's tags or elements then
    /// takes a fault per 2 MiB instead of one per 4 KiB. The capacity is only address space
    /// until used.
    package mutating func reserveCapacityWithHugePages(_ minimumCapacity: Int) {
        reserveCapacity(minimumCapacity)
        let bytes = capacity * MemoryLayout<Element>.stride
        withUnsafeMutableBufferPointer { buffer in
            Sys.adviseHugePages(UnsafeMutableRawBufferPointer(start: buffer.baseAddress, count: bytes))
        }
    }
}
