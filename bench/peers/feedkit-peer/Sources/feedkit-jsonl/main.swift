// Parses one feed file with FeedKit and prints a line per item, as the benchmark counts them:
// the same job as `feedpull --format jsonl FILE` in the parse section, without the fields.
import FeedKit
import Foundation

guard CommandLine.arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: feedkit-jsonl FILE\n".utf8))
  exit(2)
}
do {
  let feed = try Feed(fileURL: URL(fileURLWithPath: CommandLine.arguments[1]))
  let titles: [String?] =
    switch feed {
    case .rss(let rss): rss.channel?.items?.map(\.title) ?? []
    case .atom(let atom): atom.entries?.map(\.title) ?? []
    case .json(let json): json.items?.map(\.title) ?? []
    }
  var out = ""
  for title in titles {
    let text = String(decoding: try JSONEncoder().encode(title ?? ""), as: UTF8.self)
    out += "{\"type\":\"item\",\"title\":\(text)}\n"
    if out.utf8.count > 1 << 16 {
      FileHandle.standardOutput.write(Data(out.utf8))
      out = ""
    }
  }
  FileHandle.standardOutput.write(Data(out.utf8))
} catch {
  FileHandle.standardError.write(Data("feedkit-jsonl: \(error)\n".utf8))
  exit(1)
}
