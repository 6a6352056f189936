import Foundation

/// The time, and work to run at a later time: what a database's background
/// work (expiration purges, the end of idle snapshots) asks, so that a test
/// can move the time instead of waiting for it.
protocol Scheduler: AnyObject, Sendable {
    /// The time now.
    var now: Date { get }

    /// Runs `work` at `time` (as soon as may be if it has passed), never
    /// before this returns (a caller may hold a lock `work` takes);
    /// cancelling the result before then keeps it from running, discarding it does not.
    func run(at time: Date, _ work: @escaping @Sendable () -> Void) -> ScheduledWork
}

/// Work a ``Scheduler`` will run, until it is cancelled.
protocol ScheduledWork: Sendable {
    func cancel()
}

/// The system's clock and a dispatch timer on a utility queue.
final class SystemScheduler: Scheduler {
    static let shared = SystemScheduler()

    var now: Date { Date() }

    func run(at time: Date, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + max(0, time.timeIntervalSinceNow), leeway: .milliseconds(50))
        // The handler holds the timer until it has fired (or is cancelled, which releases
        // the handler): a caller need not keep the result.
        timer.setEventHandler { [timer] in
            timer.cancel()
            work()
        }
        timer.resume()
        return Timer(source: timer)
    }

    private struct Timer: ScheduledWork, @unchecked Sendable {   // a dispatch source is thread-safe
        let source: DispatchSourceTimer
        func cancel() { source.cancel() }
    }
}
