import DocLite
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A listener-token handle; keeps the handle it listens to (a collection's or
/// a query's) alive, and for a query listener the results last announced.
/// Its C calls go through ``call(_:)``, so that ``remove()`` can wait for the
/// running ones: once it returns, the listener's context may be freed.
final class ListenerTokenRef: @unchecked Sendable {   // its variables are behind `lock` and `calls`
    private let lock = Lock()
    private var token: ListenerToken?
    private var announced: Swift.Result<ResultSnapshot, Error>?
    let ownerHandle: OpaquePointer
    /// The threads making a call of this listener now; no new call once removed.
    private let calls = NSCondition()
    private var callingThreads: [pthread_t] = []
    private var isRemoved = false

    /// Made before its listener is registered, so that a callback can name its token.
    init(ownerHandle: OpaquePointer) {
        self.ownerHandle = ownerHandle
        _ = HandleRegistry.shared.retain(UnsafeRawPointer(ownerHandle))
    }

    /// Sets the token of the registered listener.
    func listen(_ token: ListenerToken) {
        lock.withLock { self.token = token }
    }

    /// Makes one C call of the listener, unless it has been removed.
    func call(_ body: () -> Void) {
        calls.lock()
        guard !isRemoved else { calls.unlock(); return }
        callingThreads.append(pthread_self())
        calls.unlock()
        body()
        calls.lock()
        if let index = callingThreads.firstIndex(where: { pthread_equal($0, pthread_self()) != 0 }) { callingThreads.remove(at: index) }
        calls.broadcast()
        calls.unlock()
    }

    /// Unregisters the listener, returns once none of its calls is running, but for
    /// one on this thread (a listener may remove itself), and lets go of its owner then,
    /// not when the last call under way lets go of this. Idempotent.
    func remove() {
        lock.withLock { token.take() }?.remove()
        calls.lock()
        let wasRemoved = isRemoved
        isRemoved = true
        while callingThreads.contains(where: { pthread_equal($0, pthread_self()) == 0 }) { calls.wait() }
        calls.unlock()
        if !wasRemoved { HandleRegistry.shared.release(UnsafeRawPointer(ownerHandle)) }
    }

    /// A query listener's latest results, or the error of the latest run; nil before the first.
    var latest: Swift.Result<ResultSnapshot, Error>? {
        get { lock.withLock { announced } }
        set { lock.withLock { announced = newValue } }
    }

    deinit {
        remove()
    }
}
