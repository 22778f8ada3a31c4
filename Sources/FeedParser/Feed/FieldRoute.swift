/// Where an element's meaning is read: a core field (`FeedElement`), the reader of one
/// namespace, or `extensions` for an element that no row names. The table maps (namespace,
/// local name) to a route; each namespace's reader lives in a file of its own.
enum FieldRoute: Equatable {
  case core(FeedElement)
  case itunes(ITunesElement)
  case podcast(PodcastElement)
  case media(MediaElement)
  case geo(GeoElement)
  case chapters(ChapterElement)
  case schedule(ScheduleElement)
  case youtube(YouTubeElement)
  /// Kept in `extensions` as the feed gave it.
  case unmapped
}

/// What a namespaced element wants once it has started.
enum FieldStart {
  /// Its text, as the value of the field (with the MIME type its attributes name, if any).
  case text(type: TextType?)
  /// Nothing of its own: its children are read as fields (`media:group`, `itunes:owner`).
  case children
  /// Nothing: its subtree is skipped.
  case ignore
}
