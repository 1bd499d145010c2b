// Types a query into the search engine one character at a time, as the picker does
// (each search narrows the one before), over a file loaded whole, and prints the best
// time of each keystroke over REPS fresh engines, in milliseconds, and their sum.
//
//     swift run -c release --package-path bench/engine engine-keys /tmp/paths-1000000.txt usrlibpython 3
//
// Each figure is the wall time and the CPU time of the whole process (both cores).
// With FIRST_ROWS=N each keystroke asks for a first screen of N rows, as the picker does on
// a large input, and then (timed apart, as "rest") for the whole ranking, or with
// REST=refine for the exact bounds the picker makes in idle time at ten million lines.
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

/// CPU time of the whole process (every thread), in milliseconds: on a shared machine a
/// keystroke's CPU moves less than its wall time.
func cpuMilliseconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
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

// The file mapped and adopted, as the picker takes a file on stdin (compact records), then
// every line's characters noted, as the picker has them once loaded.
fseek(file, 0, SEEK_END)
let size = ftell(file)
let mapped = mmap(nil, max(size, 1), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fileno(file), 0)!
let store = LineStore(large: true)
store.adopt(UnsafeRawBufferPointer(start: mapped, count: size), release: {})
store.finish()
while !store.noteCharacters(limit: 1 << 20) {}

let keys = Array(query)
// FIRST_ROWS=N: each key asks for a first screen of N rows, as the picker does, then for the
// whole ranking (timed apart, as "rest").
let firstRows = getenv("FIRST_ROWS").flatMap { Int(String(cString: $0)) }
// REST=0: the first screens alone (each key then narrows the first-screen search before it).
// REST=refine: after each first screen the bounds are made exact (`refineBounds`), as the
// picker does in idle time once a first screen of two million matches or more stands.
let restMode = getenv("REST").map { String(cString: $0) }
let skipsRest = restMode == "0" || restMode == "refine"
let refines = restMode == "refine"
var rest = [Double](repeating: .infinity, count: keys.count)
var best = [Double](repeating: .infinity, count: keys.count)
var bestCPU = [Double](repeating: .infinity, count: keys.count)
var restCPU = [Double](repeating: .infinity, count: keys.count)
var found = [Int](repeating: 0, count: keys.count)
for _ in 0..<reps {
    let engine = SearchEngine(store: store)
    var typed = ""
    for (k, key) in keys.enumerated() {
        typed.append(key)
        let start = milliseconds(), startCPU = cpuMilliseconds()
        let result = firstRows.map { engine.search(typed, firstRows: $0)! } ?? engine.search(typed)!
        best[k] = min(best[k], milliseconds() - start)
        bestCPU[k] = min(bestCPU[k], cpuMilliseconds() - startCPU)
        found[k] = result.matchCount
        if firstRows != nil && refines {
            let start = milliseconds(), startCPU = cpuMilliseconds()
            engine.refineBounds()
            rest[k] = min(rest[k], milliseconds() - start)
            restCPU[k] = min(restCPU[k], cpuMilliseconds() - startCPU)
        }
        if firstRows != nil && !skipsRest {
            let start = milliseconds(), startCPU = cpuMilliseconds()
            _ = engine.search(typed)!
            rest[k] = min(rest[k], milliseconds() - start)
            restCPU[k] = min(restCPU[k], cpuMilliseconds() - startCPU)
        }
    }
}
print("\(store.count) lines, \(reps) rounds; best ms per key, wall and CPU (lines found):")
var total = 0.0, totalCPU = 0.0
for k in keys.indices {
    print("  \(String(keys[0...k]))\t\(tenths(best[k]))\tcpu \(tenths(bestCPU[k]))\t(\(found[k]))"
          + (firstRows == nil ? "" : "\trest \(tenths(rest[k])) cpu \(tenths(restCPU[k]))"))
    total += best[k]
    totalCPU += bestCPU[k]
}
print("  sum\t\(tenths(total))\tcpu \(tenths(totalCPU))")
var usage = rusage()
getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
print("  peak RSS \(tenths(Double(usage.ru_maxrss) / 1024)) MB (input \(tenths(Double(size) / 1048576)) MB)")
