import Foundation

/// `doclite-fuzz`: DocLite's fuzz targets (``FuzzTarget/all``) behind one command.
///
///     doclite-fuzz list                            the targets
///     doclite-fuzz TARGET INPUT...                 runs each file (or each file of a folder) once
///     doclite-fuzz encode-body JSON... --into DIR  the `body` target's seeds: each JSON file encoded
///     doclite-fuzz make-file-seed DIR              the `file` target's seed: a small database file
///
/// Built with `--sanitize=fuzzer -Xswiftc -DFUZZING` (`scripts/fuzz`), the
/// program is libFuzzer's: `doclite-fuzz TARGET [libFuzzer flags] [CORPUS...]`
/// runs the target with coverage guidance (`fuzzerInitialize`, `fuzzerTestOneInput`).
enum DocLiteFuzz {
    /// The runner of the target in use.
    nonisolated(unsafe) static var runner: ((UnsafeRawBufferPointer) -> Void)?

    /// Sets up `target` for the inputs to come.
    static func start(_ target: FuzzTarget) {
        do {
            runner = try target.makeRunner()
        } catch {
            fatal("cannot set up target '\(target.name)': \(error)")
        }
    }

    static func fatal(_ message: String) -> Never {
        FileHandle.standardError.write(Data("doclite-fuzz: \(message)\n".utf8))
        exit(2)
    }

    static func target(named name: String) -> FuzzTarget {
        guard let target = FuzzTarget.named(name) else {
            fatal("no target named '\(name)'; targets: \(FuzzTarget.all.map(\.name).joined(separator: " "))")
        }
        return target
    }
}

#if FUZZING
/// The environment variable that names the target for processes libFuzzer starts itself (`-fork`, `-jobs`).
private let targetVariable = "DOCLITE_FUZZ_TARGET"

/// libFuzzer's set-up callback. The target is the first argument: it is taken
/// out of the command line before libFuzzer reads it, and kept in the environment.
@c(LLVMFuzzerInitialize)
func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    let arguments = argv.pointee!
    if argc.pointee > 1, let first = arguments[1], FuzzTarget.named(String(cString: first)) != nil {
        setenv(targetVariable, first, 1)
        for i in 1..<Int(argc.pointee) { arguments[i] = arguments[i + 1] }
        argc.pointee -= 1
    }
    guard let name = getenv(targetVariable).map({ String(cString: $0) }) else {
        DocLiteFuzz.fatal("usage: doclite-fuzz TARGET [libFuzzer flags] [CORPUS...]")
    }
    DocLiteFuzz.start(DocLiteFuzz.target(named: name))
    return 0
}

/// libFuzzer's callback for each input.
@c(LLVMFuzzerTestOneInput)
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    DocLiteFuzz.runner?(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
/// The command in an ordinary build: replays inputs, lists targets, makes the `body` seeds.
@main
enum ReplayCommand {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case nil:
            DocLiteFuzz.fatal("usage: doclite-fuzz list | TARGET INPUT... | encode-body JSON... --into DIR | make-file-seed DIR")
        case "list":
            for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
        case "encode-body":
            encodeBodies(Array(arguments.dropFirst()))
        case "make-file-seed":
            guard arguments.count == 2 else { DocLiteFuzz.fatal("usage: doclite-fuzz make-file-seed DIR") }
            do { try FileTarget.makeSeed(into: arguments[1]) } catch { DocLiteFuzz.fatal("cannot make the file seed: \(error)") }
        case let name?:
            replay(DocLiteFuzz.target(named: name), inputs: Array(arguments.dropFirst()))
        }
    }

    private static func replay(_ target: FuzzTarget, inputs: [String]) {
        DocLiteFuzz.start(target)
        var count = 0
        for file in inputs.flatMap(files(at:)) {
            guard let input = FileManager.default.contents(atPath: file) else { DocLiteFuzz.fatal("cannot read \(file)") }
            input.withUnsafeBytes { DocLiteFuzz.runner?($0) }
            count += 1
        }
        print("doclite-fuzz: \(target.name): \(count) inputs, no invariant broken")
    }

    /// `path` itself, or the files in it when it is a folder, sorted.
    private static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { DocLiteFuzz.fatal("no such file: \(path)") }
        guard isFolder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { "\(path)/\($0)" }.filter {
            FileManager.default.fileExists(atPath: $0, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }

    private static func encodeBodies(_ arguments: [String]) {
        guard arguments.count >= 3, arguments[arguments.count - 2] == "--into" else {
            DocLiteFuzz.fatal("usage: doclite-fuzz encode-body JSON... --into DIR")
        }
        let folder = arguments[arguments.count - 1]
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in arguments.dropLast(2).flatMap(files(at:)) {
            guard let text = FileManager.default.contents(atPath: file).map({ String(decoding: $0, as: UTF8.self) }),
                  let body = DocumentTargets.encodeBody(json: text) else { continue }
            let output = "\(folder)/\((file as NSString).lastPathComponent).body"
            guard FileManager.default.createFile(atPath: output, contents: Data(body)) else { DocLiteFuzz.fatal("cannot write \(output)") }
        }
    }
}
#endif
