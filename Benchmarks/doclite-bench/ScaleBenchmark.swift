import Foundation

/// `doclite-bench --scale 100000,1000000`: the whole benchmark at each size
/// (the beer sample stored once per 100,000 hotels), each in a process of its own (so that one size's memory and caches do not
/// carry into the next), then every figure beside its growth from one size to
/// the next, DocLite's next to R's. A cost that grows faster than the data
/// shows as a growth above the size's; a line where DocLite's grows more than
/// 10% faster than R's is marked.
enum ScaleBenchmark {
    /// One figure of one run: the median by side ("DocLite", "R", "J").
    private struct Figure {
        let unit: String
        let medians: [String: Double]
    }

    static func run(sizes: [Int], rounds: Int) throws {
        guard sizes.count >= 2, sizes == sizes.sorted() else {
            throw BenchmarkError("--scale takes two or more ascending sizes, e.g. --scale 100000,1000000")
        }
        var runs: [[String: Figure]] = []
        var order: [String] = []
        for size in sizes {
            FileHandle.standardError.write(Data("running the benchmark on \(size) documents…\n".utf8))
            let figures = try figures(size: size, rounds: rounds)
            for (key, _) in figures.sorted(by: { $0.value.index < $1.value.index }) where !order.contains(key) { order.append(key) }
            runs.append(figures.mapValues(\.figure))
        }
        print("Growth with the number of documents (\(sizes.map(String.init).joined(separator: " → ")); \(rounds) rounds; "
              + "a time's growth is its ratio from one size to the next, a rate's the inverse, so above the size's ratio is "
              + "superlinear)\n")
        let steps = zip(sizes, sizes.dropFirst()).map { "\($0)→\($1)" }
        print("| scenario | unit | " + sizes.map { "DocLite @\($0) | R @\($0)" }.joined(separator: " | ") + " | "
              + steps.map { "growth DocLite \($0) | growth R \($0)" }.joined(separator: " | ") + " | |")
        print("|---|---|" + String(repeating: "---:|", count: sizes.count * 2 + steps.count * 2) + "---|")
        for key in order {
            let figures = runs.map { $0[key] }
            guard let unit = figures.compactMap({ $0?.unit }).first else { continue }
            let values = figures.map { figure in ["DocLite", "R"].map { side in figure?.medians[side] } }
            var growths: [String] = []
            var faster = false
            for step in 0..<steps.count {
                let docLite = growth(values[step][0], values[step + 1][0], unit: unit)
                let r = growth(values[step][1], values[step + 1][1], unit: unit)
                growths += [format(growth: docLite), format(growth: r)]
                if let docLite, let r, docLite > r * 1.1 { faster = true }
            }
            let cells = values.flatMap { $0.map { format($0, unit) } }
            print("| \(key) | \(unit) | " + cells.joined(separator: " | ") + " | " + growths.joined(separator: " | ")
                  + " | \(faster ? "DocLite grows faster" : "") |")
        }
    }

    /// Runs the benchmark on `size` documents; its figures by scenario, each with its place in the run.
    private static func figures(size: Int, rounds: Int) throws -> [String: (index: Int, figure: Figure)] {
        let data = try Measure.runThisProgram(["--docs", "\(size)", "--rounds", "\(rounds)", "--rows-json"],
                                              failure: "the benchmark of \(size) documents failed")
        var figures: [String: (Int, Figure)] = [:]
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let scenario = object["scenario"] as? String, let unit = object["unit"] as? String,
                  let medians = object["medians"] as? [String: Double] else { continue }
            figures[key(scenario, size: size)] = (index, Figure(unit: unit, medians: medians))
        }
        return figures
    }

    /// A scenario's name without what changes with the size (row and match
    /// counts, the document count, the beer sample's copies).
    private static func key(_ scenario: String, size: Int) -> String {
        scenario.replacingOccurrences(of: #" \(\d+ rows\)| ×\d+"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #" of \d+ matches"#, with: " of the matches", options: .regularExpression)
            .replacingOccurrences(of: "\(size)", with: "N")
    }

    /// How much a cost grew from `before` to `after`: times and sizes as they are, rates inverted.
    private static func growth(_ before: Double?, _ after: Double?, unit: String) -> Double? {
        guard let before, let after, before > 0, after > 0 else { return nil }
        return unit.hasSuffix("/s") ? before / after : after / before
    }

    private static func format(growth: Double?) -> String {
        growth.map { String(format: "%.1f×", $0) } ?? "—"
    }

    private static func format(_ value: Double?, _ unit: String) -> String {
        guard let value else { return "—" }
        switch unit {
        case "µs", "MB": return String(format: "%.1f", value)
        case "ms": return String(format: "%.3f", value)
        default: return String(format: "%.0f", value)
        }
    }
}
