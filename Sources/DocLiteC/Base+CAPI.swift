import CDocLite
import DocLite
import Foundation

@c @implementation
public func CBL_Retain(_ handle: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    HandleRegistry.shared.retain(handle) ? handle : nil
}

@c @implementation
public func CBL_Release(_ handle: UnsafeMutableRawPointer?) {
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
