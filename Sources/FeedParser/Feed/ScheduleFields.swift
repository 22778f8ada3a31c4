/// The elements that say how often a feed changes.
enum ScheduleElement: UInt8 {
  case ttl, skipHours, hour, skipDays, day, updatePeriod, updateFrequency, updateBase
}

/// RSS `ttl`, `skipHours`, `skipDays` and the Syndication module (`sy:`) into `FeedSchedule`,
/// which a subscriber's scheduler reads. Channel only.
enum ScheduleFields {
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

  static func start<Record: NamespacedRecord>(
    _ element: ScheduleElement, _ attributes: XMLAttributes, _ record: inout Record,
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

  static func text<Record: NamespacedRecord>(
    _ element: ScheduleElement, _ text: String, _ record: inout Record,
    _ scope: inout NamespaceScope
  ) {
    let trimmed = text.trimmingSpaces()
    guard !trimmed.isEmpty else { return }
    record.withSchedule { schedule in
      switch element {
      case .ttl: schedule.ttl = Int(trimmed)
      case .hour:
        if let hour = Int(trimmed), (0...23).contains(hour), !schedule.skipHours.contains(hour) {
          schedule.skipHours.append(hour)
        }
      case .day:
        if let name = dayNames.first(where: { $0.lowercased() == trimmed.lowercased() }),
          !schedule.skipDays.contains(name)
        {
          schedule.skipDays.append(name)
        }
      case .updatePeriod: schedule.updatePeriod = trimmed.lowercased()
      case .updateFrequency: schedule.updateFrequency = Int(trimmed)
      case .updateBase: schedule.updateBase = trimmed
      case .skipHours, .skipDays: break
      }
    }
    if record.schedule?.isEmpty == true { record.schedule = nil }
  }
}
