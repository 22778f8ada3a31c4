/// The elements that say how often a feed changes.
enum ScheduleElement: UInt8 {
  case ttl, skipHours, hour, skipDays, day, updatePeriod, updateFrequency, updateBase
}

/// RSS `ttl`, `skipHours`, `skipDays` and the Syndication module (`sy:`) into the channel's
/// `schedule` object (`ScheduleFields`), which a subscriber's scheduler reads. Channel only.
enum ScheduleReader {
  static let coreRows: [(String, FieldRoute)] = [
    ("ttl", .schedule(.ttl)), ("skipHours", .schedule(.skipHours)),
    ("hour", .schedule(.hour)), ("skipDays", .schedule(.skipDays)), ("day", .schedule(.day)),
  ]
  static let syndicationRows: [(String, FieldRoute)] = [
    ("updatePeriod", .schedule(.updatePeriod)), ("updateFrequency", .schedule(.updateFrequency)),
    ("updateBase", .schedule(.updateBase)),
  ]

  static let dayNames = [
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
  ]

  static func start(
    _ element: ScheduleElement, _ attributes: XMLAttributes, _ record: NamespacedRecord,
    _ scope: inout NamespaceScope
  ) -> FieldStart {
    guard !scope.isItem else { return .ignore }
    switch element {
    case .skipHours:
      scope.skipHoursDepth = scope.depth
      return .children
    case .skipDays:
      scope.skipDaysDepth = scope.depth
      return .children
    case .hour: return scope.skipHoursDepth == nil ? .ignore : .text(type: nil)
    case .day: return scope.skipDaysDepth == nil ? .ignore : .text(type: nil)
    default: return .text(type: nil)
    }
  }

  static func text(
    _ element: ScheduleElement, _ bytes: UnsafeBufferPointer<UInt8>, _ record: NamespacedRecord,
    _ scope: inout NamespaceScope
  ) {
    let trimmed = String(decoding: bytes.trimmedOfXMLSpace, as: UTF8.self)
    guard !trimmed.isEmpty, let schedule = record.schedule() else { return }
    let storage = record.storage
    switch element {
    case .ttl: storage.set(schedule, \.ttl, Int(trimmed))
    case .hour:
      if let hour = Int(trimmed), (0...23).contains(hour),
        !storage.value(schedule, \.skipHours).contains(hour)
      {
        storage.set(
          RecordSlot(integer: Int64(hour)),
          at: storage.appendEntry(toListAt: schedule.slot(\.skipHours)))
      }
    case .day:
      if let name = dayNames.first(where: { $0.lowercased() == trimmed.lowercased() }),
        !storage.value(schedule, \.skipDays).contains(name)
      {
        storage.setText(name, at: storage.appendEntry(toListAt: schedule.slot(\.skipDays)))
      }
    case .updatePeriod: storage.setText(schedule, \.updatePeriod, trimmed.lowercased())
    case .updateFrequency: storage.set(schedule, \.updateFrequency, Int(trimmed))
    case .updateBase: storage.setText(schedule, \.updateBase, trimmed)
    case .skipHours, .skipDays: break
    }
    record.dropScheduleIfEmpty()
  }
}
