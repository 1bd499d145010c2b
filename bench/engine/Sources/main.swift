// Types a query into the search engine one character at a time, as the picker does
// (each search narrows the one before), over a file loaded whole, and prints the best
// time of each keystroke over REPS fresh engines, in milliseconds, and their sum.
//
//     swift run -c release --package-path bench/engine engine-keys /tmp/paths-1000000.txt usrlibpython 3
//
// With FIRST_ROWS=N each keystroke asks for a first screen of N rows, as the picker does on
// a large input, and then (timed apart, as "rest") for the whole ranking.
import CMalloc
import Glibc
import PickCore

// pick's own malloc settings (Sources/Pick/Input/Memory.swift), so that memory behaves the same.
_ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
_ = mallopt(M_TRIM_THRESHOLD, 1 << 30)
_ = mallopt(M_ARENA_MAX, 1)

func milliseconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
}

func tenths(_ x: Double) -> String { if !x.isFinite { return "-" }; return String(Double(Int(x * 10 + 0.5)) / 10) }

let arguments = CommandLine.arguments
guard arguments.count >= 2, let file = fopen(arguments[1], "rb") else {
    fputs("usage: engine-keys FILE [QUERY] [REPS]\n", stderr)
    exit(2)
}
let query = arguments.count > 2 ? arguments[2] : "usrlibpython"
let reps = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 3) : 3

// The file whole, then every line's characters noted, as the picker has them once loaded.
fseek(file, 0, SEEK_END)
let size = ftell(file)
fseek(file, 0, SEEK_SET)
let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 16)
_ = fread(bytes.baseAddress, 1, size, file)
fclose(file)
let store = LineStore(large: true)
store.append(UnsafeRawBufferPointer(rebasing: bytes[0..<size]))
store.finish()
while !store.noteCharacters(limit: 1 << 20) {}

let keys = Array(query)
// FIRST_ROWS=N: each key asks for a first screen of N rows, as the picker does, then for the
// whole ranking (timed apart, as "rest").
let firstRows = getenv("FIRST_ROWS").flatMap { Int(String(cString: $0)) }
var rest = [Double](repeating: .infinity, count: keys.count)
var best = [Double](repeating: .infinity, count: keys.count)
var found = [Int](repeating: 0, count: keys.count)
for _ in 0..<reps {
    let engine = SearchEngine(store: store)
    var typed = ""
    for (k, key) in keys.enumerated() {
        typed.append(key)
        let start = milliseconds()
        let result = firstRows.map { engine.search(typed, firstRows: $0)! } ?? engine.search(typed)!
        best[k] = min(best[k], milliseconds() - start)
        found[k] = result.matchCount
        if firstRows != nil {
            let start = milliseconds()
            _ = engine.search(typed)!
            rest[k] = min(rest[k], milliseconds() - start)
        }
    }
}
print("\(store.count) lines, \(reps) rounds; best ms per key (lines found):")
var total = 0.0
for k in keys.indices {
    print("  \(String(keys[0...k]))\t\(tenths(best[k]))\t(\(found[k]))" + (firstRows == nil ? "" : "\trest \(tenths(rest[k]))"))
    total += best[k]
}
print("  sum\t\(tenths(total))")
