// The libFuzzer entry point: `Fuzz/run` builds this file with the rest of Fuzz/, PickCore
// and the executable's painter, under -sanitize=fuzzer,address. Never part of `swift build`.
//
// The first byte of an input chooses the target (its value modulo the number of targets),
// unless PICK_FUZZ_TARGET names one; the rest is that target's input. Each target checks
// properties that must hold for any input and stops the process (a crash libFuzzer keeps)
// when one does not.

import PickCore
#if canImport(Glibc)
import Glibc
#endif

/// The fuzz targets, in the order the first byte selects them.
enum Target: String, CaseIterable {
    case lines, search, positions, frame, options, template, bind, colour, preview
}

/// The target PICK_FUZZ_TARGET forces, read once.
let forcedTarget: Target? = {
    guard let name = getenv("PICK_FUZZ_TARGET") else { return nil }
    let target = Target(rawValue: String(cString: name))
    if target == nil {
        fputs("PICK_FUZZ_TARGET must be one of \(Target.allCases.map(\.rawValue))\n", stderr)
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let target = forcedTarget ?? Target.allCases[Int(bytes[0]) % Target.allCases.count]
    let input = Array(bytes.dropFirst())
    switch target {
    case .lines: LineParserTarget.run(input)
    case .search: SearchTarget.run(input)
    case .positions: PositionsTarget.run(input)
    case .frame: FrameTarget.run(input)
    case .options: OptionsTarget.run(input)
    case .template: TemplateTarget.run(input)
    case .bind: BindTarget.run(input)
    case .colour: ColourTarget.run(input)
    case .preview: PreviewTarget.run(input)
    }
    return 0
}

/// Stops the run with a message libFuzzer prints next to the crashing input.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
           file: StaticString = #file, line: UInt = #line) {
    if !condition() {
        fputs("pick fuzz: property failed: \(message())\n", stderr)
        fatalError(message(), file: file, line: line)
    }
}

/// A small deterministic generator, seeded from the input, for chunk sizes and choices.
struct Dice {
    var state: UInt64
    init(_ seed: UInt8) { state = 0x9E37_79B9_7F4A_7C15 &* (UInt64(seed) + 1) }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }
}

/// Reads option bytes from the front of an input (0 once it runs out).
struct Header {
    private var bytes: ArraySlice<UInt8>
    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }
    mutating func byte() -> UInt8 {
        guard let b = bytes.first else { return 0 }
        bytes = bytes.dropFirst()
        return b
    }
    var rest: [UInt8] { Array(bytes) }
}

/// Splits `bytes` into lines as pick must: at `separator`, a last line without one counts.
func referenceLines(_ bytes: [UInt8], separator: UInt8) -> [ArraySlice<UInt8>] {
    var lines = bytes.split(separator: separator, omittingEmptySubsequences: false)
    if bytes.isEmpty || bytes.last == separator { lines.removeLast() }
    return lines
}

/// `TITLE<TAB>SECTION<TAB>KEYWORDS<TAB>SHORTCUT` split as DESIGN.md says, on plain arrays.
struct ReferenceFields: Equatable {
    var title: Range<Int>
    var section: Range<Int>?
    var keywords: Range<Int>?
    var shortcut: Range<Int>?

    init(title: Range<Int>, section: Range<Int>?, keywords: Range<Int>?, shortcut: Range<Int>?) {
        self.title = title
        self.section = section
        self.keywords = keywords
        self.shortcut = shortcut
    }

    init(_ f: LineFields) {
        self.init(title: f.title, section: f.section, keywords: f.keywords, shortcut: f.shortcut)
    }
}

func referenceFields(_ line: ArraySlice<UInt8>, parsesFields: Bool) -> ReferenceFields {
    let n = line.count
    guard parsesFields else { return ReferenceFields(title: 0..<n, section: nil, keywords: nil, shortcut: nil) }
    var tabs: [Int] = []
    for (k, b) in line.enumerated() where b == 0x09 {
        tabs.append(k)
        if tabs.count == 4 { break }
    }
    func field(_ i: Int) -> Range<Int>? {
        guard i < tabs.count else { return nil }
        let lo = tabs[i] + 1
        let hi = i + 1 < tabs.count ? tabs[i + 1] : n
        return lo < hi ? lo..<hi : nil
    }
    return ReferenceFields(title: 0..<(tabs.first ?? n), section: field(0), keywords: field(1), shortcut: field(2))
}

/// A store holding `bytes`, fed the way input arrives: in chunks of varying size.
func feedStore(_ bytes: [UInt8], separator: UInt8, parsesFields: Bool, dice: inout Dice,
               largestChunk: Int = 64) -> LineStore {
    let store = LineStore(separator: separator, parsesFields: parsesFields)
    var at = 0
    while at < bytes.count {
        let n = min(bytes.count - at, 1 + dice.below(largestChunk))
        if dice.below(2) == 0 {
            store.append(bytes[at..<at + n])
        } else {
            let space = store.writableSpace()
            let k = min(n, space.count)
            bytes.withUnsafeBytes { src in
                space.baseAddress!.copyMemory(from: src.baseAddress! + at, byteCount: k)
            }
            store.commit(k)
            at += k
            continue
        }
        at += n
    }
    store.finish()
    return store
}
