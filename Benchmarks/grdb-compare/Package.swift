// swift-tools-version:6.0
// The object path against GRDB.swift: documents built with setters and saved,
// typed values read from rows, documents got by ID — DocLite beside GRDB on a
// relational table and on JSON text, in one process. Its own package, so that
// DocLite's users never resolve GRDB. Run by scripts/bench-grdb.
import PackageDescription

let package = Package(
    name: "DocLiteGRDBBench",
    dependencies: [
        .package(name: "DocLite", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "doclite-grdb-bench",
            dependencies: [.product(name: "DocLite", package: "DocLite"), .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ]
)
