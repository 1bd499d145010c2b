/// A term's text split into scalars, ready for the hot loop. Holds only pointers and
/// flags, so reading it costs no reference counting; it owns that memory and frees it when
/// it goes (one per term, in a `LineMatcher`).
struct PreparedTerm: ~Copyable {
    let kind: TermKind
    let inverse: Bool
    let caseSensitive: Bool
    let stripsDiacritics: Bool
    /// The term's UTF-8 bytes.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The term's scalars.
    let scalars: UnsafeBufferPointer<UInt32>
    /// Byte offset of each scalar in `bytes`, plus the end.
    let scalarStarts: UnsafeBufferPointer<Int>

    init(_ term: Term) {
        kind = term.kind
        inverse = term.inverse
        caseSensitive = term.caseSensitive
        stripsDiacritics = term.stripsDiacritics
        let b = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(term.text.count, 1))
        _ = b.initialize(from: term.text)
        var scalarList: [UInt32] = []
        var starts: [Int] = []
        var i = 0
        while i < term.text.count {
            let (scalar, width) = UTF8Codec.decode(UnsafePointer(b.baseAddress!), i, term.text.count)
            scalarList.append(scalar)
            starts.append(i)
            i += width
        }
        starts.append(i)
        let sc = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(scalarList.count, 1))
        _ = sc.initialize(from: scalarList)
        let st = UnsafeMutableBufferPointer<Int>.allocate(capacity: starts.count)
        _ = st.initialize(from: starts)
        bytes = UnsafeBufferPointer(start: b.baseAddress, count: term.text.count)
        scalars = UnsafeBufferPointer(start: sc.baseAddress, count: scalarList.count)
        scalarStarts = UnsafeBufferPointer(st)
    }

    deinit {
        UnsafeMutablePointer(mutating: bytes.baseAddress!).deallocate()
        UnsafeMutablePointer(mutating: scalars.baseAddress!).deallocate()
        UnsafeMutablePointer(mutating: scalarStarts.baseAddress!).deallocate()
    }

    /// The UTF-8 bytes of scalar `k`.
    @inline(__always)
    func needle(_ k: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes.baseAddress! + scalarStarts[k], count: scalarStarts[k + 1] - scalarStarts[k])
    }
}
