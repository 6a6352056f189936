// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "DocLite",
    products: [
        .library(name: "DocLite", targets: ["DocLite"]),
        .library(name: "DocLiteC", type: .dynamic, targets: ["DocLiteC"]),
        // The query conformance runner, for the `doclite` tool (Tools/, a package of its own).
        .library(name: "DocLiteConformance", targets: ["DocLiteConformance"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // ICU's collator behind an opaque C API (Unicode collations).
        .target(name: "CICUCollation", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc")]),
        // The C header, imported by DocLiteC so that `@c @implementation`
        // checks every exported function against its declaration.
        .systemLibrary(name: "CDocLite", path: "include"),
        // Vector search's inner loops with AVX2 and FMA, for the CPUs that have them.
        .target(name: "CVectorKernels"),
        .target(name: "DocLite", dependencies: ["CSQLite", "CPCRE2", "CICUCollation", "COpenSSL", "CVectorKernels"]),
        .target(name: "DocLiteC", dependencies: ["DocLite", "DocLiteConformance", "CDocLite"]),
        // Runs the query conformance corpus; used by `doclite conformance` and the tests.
        .target(name: "DocLiteConformance", dependencies: ["DocLite"]),
        .executableTarget(
            name: "doclite-example",
            dependencies: ["DocLite"],
            path: "Examples/doclite-example"
        ),
        .executableTarget(
            name: "doclite-bench",
            dependencies: ["DocLite", "CSQLite", "CPCRE2"],
            path: "Benchmarks/doclite-bench"
        ),
        .executableTarget(
            name: "doclite-crashloop",
            dependencies: ["DocLite", "CSQLite"],
            path: "Reliability/doclite-crashloop"
        ),
        // The fuzz targets (scripts/fuzz): replays inputs in an ordinary build;
        // built with --sanitize=fuzzer -Xswiftc -DFUZZING, libFuzzer drives them.
        .executableTarget(
            name: "doclite-fuzz",
            dependencies: ["DocLite", "DocLiteC", "CDocLite", "CSQLite"],
            path: "Reliability/doclite-fuzz"
        ),
        .testTarget(name: "DocLiteTests", dependencies: ["DocLite", "DocLiteConformance", "CSQLite"]),
        // The guides' Swift examples as written: Swift 5 code (in Swift 6 mode they need only
        // `final` on the predictive model class: DocLite's PredictiveModel is Sendable, as DocLite
        // calls it from query threads). Their warnings, listed in the files, are the guides'.
        .testTarget(name: "GuideExampleTests", dependencies: ["DocLite"],
                    swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-suppress-warnings"])]),
    ]
)
