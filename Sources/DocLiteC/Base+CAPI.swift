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

/// DOCLITE_VERSION, made once as a C string that lives as long as the process.
nonisolated(unsafe) private let versionCString = UnsafePointer(strdup(DOCLITE_VERSION)!)

@c @implementation
public func CBL_Version() -> UnsafePointer<CChar>? {
    versionCString
}

@c @implementation
public func CBL_VersionNumber() -> Int32 {
    Int32(DOCLITE_VERSION_MAJOR * 1_000_000 + DOCLITE_VERSION_MINOR * 1_000 + DOCLITE_VERSION_PATCH)
}
