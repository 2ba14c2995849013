import ArgumentParser
import CacheKit

extension CacheFormatKind: ExpressibleByArgument {}

extension EntryState: ExpressibleByArgument {}
