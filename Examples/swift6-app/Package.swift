// swift-tools-version:6.0
// An app's own package, in the Swift 6 language mode (complete data-race
// checking), depending on DocLite by path as a user's would. scripts/test builds
// and runs it; it exits non-zero when a check fails.
import PackageDescription

let package = Package(
    name: "Swift6App",
    dependencies: [.package(name: "DocLite", path: "../..")],
    targets: [
        .executableTarget(name: "Swift6App", dependencies: [.product(name: "DocLite", package: "DocLite")]),
    ],
    swiftLanguageModes: [.v6]
)
