import Foundation
import XCTest
@testable import DocLite

/// The system scheduler: work runs when its time comes, whether or not the caller
/// keeps what `run(at:)` returns; cancelled work does not run.
final class SchedulerTests: XCTestCase {
    func testWorkRunsThoughItsHandleIsDropped() {
        let ran = expectation(description: "the work ran")
        _ = SystemScheduler.shared.run(at: Date()) { ran.fulfill() }
        wait(for: [ran], timeout: 10)
    }

    func testCancelledWorkDoesNotRun() {
        let cancelled = expectation(description: "the cancelled work ran")
        cancelled.isInverted = true
        let ran = expectation(description: "the later work ran")
        let time = Date().addingTimeInterval(0.05)
        SystemScheduler.shared.run(at: time) { cancelled.fulfill() }.cancel()
        _ = SystemScheduler.shared.run(at: time.addingTimeInterval(0.01)) { ran.fulfill() }
        wait(for: [ran], timeout: 10)   // (by then the cancelled work's time has passed)
        wait(for: [cancelled], timeout: 0)
    }
}
