/// The front half of `StreamingFeedParser`: turns a document's bytes, cut anywhere and in any
/// encoding, into the repaired UTF-8 that libxml2 reads, as `XMLRepairFilter` pieces. It holds
/// the first bytes until `EncodingSniffer` has decided the encoding, then converts
/// (`IconvTranscoder`), repairs (`UTF8Repair`) and filters (`XMLRepairFilter`) each chunk. It
/// knows nothing of libxml2 or of the document's structure, which is what lets it run on a
/// thread of its own, a chunk ahead of the parse (`PreparationAhead`).
final class XMLInputPreparer {
  typealias Emit = (UnsafeRawBufferPointer, XMLRepairFilter.Piece) -> Void

  private let declaredCharset: String?
  /// Bytes held until the encoding is decided; empty afterwards.
  private var prefix: [UInt8] = []
  private(set) var decision: EncodingDecision?

  /// The encoding the document was read in: windows-1252 once an undeclared document turned
  /// out not to be UTF-8 (`UTF8Repair`).
  var readEncoding: EncodingDecision? {
    guard var decision else { return nil }
    if utf8Repair.isWindows1252 {
      decision.name = "windows-1252"
      decision.trustworthy = false
    }
    return decision
  }
  /// For every encoding but UTF-8: iconv (or a table) to UTF-8, invalid sequences as U+FFFD.
  private var transcoder: (any DocumentTranscoder)?
  /// Invalid sequences become U+FFFD before anything else (after iconv, for other encodings).
  private var utf8Repair = UTF8Repair()
  private var repairFilter = XMLRepairFilter()

  init(declaredCharset: String?) {
    self.declaredCharset = declaredCharset
  }

  var heldByteCount: Int { prefix.count }

  /// True once a step changed a byte: the document was not well-formed as sent.
  var repaired: Bool {
    repairFilter.repaired || utf8Repair.repaired || (transcoder?.repaired ?? false)
  }

  /// Hands `emit` the pieces that the next chunk of the document completes, in order.
  func prepare(_ chunk: UnsafeRawBufferPointer, _ emit: Emit) {
    guard chunk.count > 0 else { return }
    if decision != nil {
      convert(chunk, emit)
      return
    }
    prefix.append(contentsOf: chunk)
    guard
      let decision = EncodingSniffer.decide(
        prefix, declaredCharset: declaredCharset, isFinal: false)
    else { return }
    start(decision, emit)
  }

  /// The document's end: decides the encoding if the bytes were too few to, and hands on what
  /// each step held back.
  func finish(_ emit: Emit) {
    if decision == nil && !prefix.isEmpty {
      let decision =
        EncodingSniffer.decide(prefix, declaredCharset: declaredCharset, isFinal: true)
        ?? EncodingDecision(name: "utf-8", skip: 0)
      start(decision, emit)
    }
    guard decision != nil else { return }
    transcoder?.finish { repairAndFilter($0, emit) }
    utf8Repair.finish { repairFilter.process($0, emit) }
    repairFilter.finish(emit)
  }

  private func start(_ decision: EncodingDecision, _ emit: Emit) {
    var decision = decision
    let decoder = CharsetNames.decoder(for: decision.name)
    if decision.name != "utf-8" {
      transcoder =
        IconvTranscoder(from: decoder)
        ?? IconvTranscoder(from: String(decoder.map { $0 == "_" ? "-" : $0 }))
        ?? SingleByteTranscoder(encoding: decoder)
    }
    if decision.name != "utf-8" && transcoder == nil {
      // An encoding iconv does not know: read the bytes as UTF-8, not well-formed. (libxml2's
      // own converters would read a chunk with a bad byte differently by chunking.)
      decision = EncodingDecision(name: "utf-8", skip: decision.skip, trustworthy: false)
    }
    self.decision = decision
    utf8Repair.fallsBackToWindows1252 = decision.isUndeclared
    let held = prefix
    prefix = []
    let skip = min(decision.skip, held.count)
    held[skip...].withUnsafeBytes { convert($0, emit) }
  }

  private func convert(_ bytes: UnsafeRawBufferPointer, _ emit: Emit) {
    guard bytes.count > 0 else { return }
    if let transcoder {
      transcoder.process(bytes) { repairAndFilter($0, emit) }
    } else {
      repairAndFilter(bytes, emit)
    }
  }

  private func repairAndFilter(_ bytes: UnsafeRawBufferPointer, _ emit: Emit) {
    utf8Repair.process(bytes) { repaired in
      guard repaired.count > 0 else { return }
      repairFilter.process(repaired, emit)
    }
  }
}
