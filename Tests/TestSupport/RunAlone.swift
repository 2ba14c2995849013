import Foundation
import XCTest

extension Run {
    /// For a test whose subject is the whole process (its allocator's settings, its heaps):
    /// true in the process that is to do the test's work. Otherwise runs this test binary
    /// again for `test` alone ("Module.Class/testName"), with `flag` set in its environment,
    /// asserts that it ran and passed, and returns false. A process of its own, because
    /// late in a whole suite a process carries what earlier tests left.
    public static func alone(
        _ test: String, flag: String, file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        if ProcessInfo.processInfo.environment[flag] != nil { return true }
        let run = Run.command([CommandLine.arguments[0], test], environment: [flag: "1"])
        let output = run.out + run.err
        XCTAssertEqual(run.status, 0, output, file: file, line: line)
        XCTAssertTrue(
            output.contains("Executed 1 test, with 0 failures"), "the probe did not run: " + output, file: file,
            line: line)
        return false
    }
}
