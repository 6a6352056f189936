import CDocLite
import DocLite
import Foundation

@c @implementation
public func CBL_Retain(_ handle: UnsafeRawPointer?) -> UnsafeMutableRawPointer? {
    HandleRegistry.shared.retain(handle) ? UnsafeMutableRawPointer(mutating: handle) : nil
}

@c @implementation
public func CBL_Release(_ handle: UnsafeRawPointer?) {
    HandleRegistry.shared.release(handle)
}

@c @implementation
public func CBL_InstanceCount() -> UInt64 {
    UInt64(HandleRegistry.shared.count)
}

@c @implementation
public func CBL_Now() -> CBLTimestamp {
    CBLTimestamp((Date().timeIntervalSince1970 * 1000).rounded(.down))
}
