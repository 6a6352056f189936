// swift-tools-version:6.0
// The command-line tool `doclite`: a package of its own, so that the library's
// users never resolve swift-argument-parser. scripts/example builds it; CMake
// builds the same sources (cmake/DocLiteTool.cmake).
import PackageDescription

let package = Package(
    name: "DocLiteTools",
    products: [
        .executable(name: "doclite", targets: ["doclite"]),
    ],
    dependencies: [
        .package(name: "DocLite", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "doclite",
            dependencies: [
                .product(name: "DocLite", package: "DocLite"),
                .product(name: "DocLiteConformance", package: "DocLite"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ]
)
