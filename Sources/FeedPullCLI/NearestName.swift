/// The known name nearest to a mistyped one (`--timout` → `--timeout`), by edit distance: a
/// suggestion is made only when it is close enough to be what was meant.
enum NearestName {
  /// The nearest of `names` within a third of the word's length (at least 2 edits), or nil.
  static func nearest(to word: String, among names: [String]) -> String? {
    let limit = max(2, word.count / 3)
    var best: (name: String, distance: Int)?
    for name in names {
      let distance = editDistance(word, name)
      if distance <= limit, distance < best?.distance ?? Int.max { best = (name, distance) }
    }
    return best?.name
  }

  /// Levenshtein distance: insertions, deletions and substitutions of characters.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...max(1, b.count) where !b.isEmpty {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      previous = current
    }
    return previous[b.count]
  }
}
