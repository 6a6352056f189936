import COpenSSL

/// SHA-1 digests from OpenSSL's libcrypto, for Couchbase Lite's content-derived
/// revision IDs. Measured 4–5× faster than a Swift implementation here (it uses
/// the CPU's SHA extensions). One instance is used by one thread at a time.
final class SHA1 {
    /// The algorithm, fetched once: an implicit fetch per digest costs as much as the digest.
    nonisolated(unsafe) private static let algorithm = EVP_MD_fetch(nil, "SHA1", nil)
    private let context: OpaquePointer

    /// Throws when OpenSSL's default provider offers no SHA-1.
    init() throws {
        guard Self.algorithm != nil, let context = EVP_MD_CTX_new() else {
            throw DocLiteError(.unexpectedError, "OpenSSL's SHA-1 is unavailable (check the OpenSSL configuration's default provider)")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Starts a digest.
    func begin() {
        EVP_DigestInit_ex(context, Self.algorithm, nil)
    }

    /// Adds `bytes` to the digest.
    func update(_ bytes: UnsafeRawBufferPointer) {
        if bytes.count > 0 { EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) }
    }

    /// Appends the 20-byte digest to `output`.
    func finish(appendingTo output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { digest in
            EVP_DigestFinal_ex(context, digest.baseAddress, nil)
            output.append(contentsOf: digest[0..<20])
        }
    }
}
