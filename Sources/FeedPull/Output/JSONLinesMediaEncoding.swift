import FeedParser

/// The `media` and `podcast` objects: the two largest of the extension section, each a
/// namespace's worth of small objects.
extension JSONLinesEncoding {
  static func write(_ media: MediaInfo, to object: inout JSONLineBuffer) {
    object.object("media") { object in
      object.objects("contents", media.contents) { object, content in
        object.field("url", content.url)
        object.field("type", content.type)
        object.field("medium", content.medium)
        object.field("is_default", content.isDefault)
        object.field("expression", content.expression)
        object.field("bitrate", content.bitrate)
        object.field("framerate", content.framerate)
        object.field("sampling_rate", content.samplingRate)
        object.field("channels", content.channels)
        object.field("duration", content.duration)
        object.field("width", content.width)
        object.field("height", content.height)
        object.field("lang", content.lang)
        object.field("file_size", content.fileSize)
      }
      object.objects("thumbnails", media.thumbnails) { object, thumbnail in
        object.field("url", thumbnail.url)
        object.field("width", thumbnail.width)
        object.field("height", thumbnail.height)
        object.field("time", thumbnail.time)
      }
      object.field("title", media.title)
      if media.title != nil { object.field("title_type", media.titleType) }
      object.field("description", media.description)
      if media.description != nil { object.field("description_type", media.descriptionType) }
      object.field("keywords", media.keywords)
      object.objects("categories", media.categories) { object, category in
        object.field("term", category.term)
        object.field("scheme", category.scheme)
        object.field("label", category.label)
      }
      object.objects("credits", media.credits) { object, credit in
        object.field("name", credit.name)
        object.field("role", credit.role)
        object.field("scheme", credit.scheme)
      }
      if let player = media.player {
        object.object("player") { object in
          object.field("url", player.url)
          object.field("width", player.width)
          object.field("height", player.height)
        }
      }
      if let rating = media.rating {
        object.object("rating") { object in
          object.field("value", rating.value)
          object.field("scheme", rating.scheme)
        }
      }
      if let restriction = media.restriction {
        object.object("restriction") { object in
          object.field("value", restriction.value)
          object.field("relationship", restriction.relationship)
          object.field("type", restriction.type)
        }
      }
      object.field("copyright", media.copyright)
      if let license = media.license {
        object.object("license") { object in
          object.field("url", license.url)
          object.field("type", license.type)
          object.field("text", license.text)
        }
      }
      if let community = media.community {
        object.object("community") { object in
          if let stars = community.starRating {
            object.object("star_rating") { object in
              object.field("average", stars.average)
              object.field("count", stars.count)
              object.field("min", stars.min)
              object.field("max", stars.max)
            }
          }
          object.field("views", community.views)
          object.field("favorites", community.favorites)
          object.field("tags", community.tags)
        }
      }
    }
  }

  /// `podcast` by address (see `writeItemFields`): each read copies one field.
  static func write(_ podcast: UnsafePointer<PodcastInfo>, to object: inout JSONLineBuffer) {
    object.object("podcast") { object in
      object.field("guid", podcast.pointee.guid)
      object.field("locked", podcast.pointee.locked)
      object.field("locked_owner", podcast.pointee.lockedOwner)
      object.objects("funding", podcast.pointee.funding) { object, funding in
        object.field("url", funding.url)
        object.field("text", funding.text)
      }
      object.objects("persons", podcast.pointee.persons) { object, person in
        object.field("name", person.name)
        object.field("role", person.role)
        object.field("group", person.group)
        object.field("href", person.href)
        object.field("img", person.img)
      }
      if let location = podcast.pointee.location {
        object.object("location") { object in
          object.field("name", location.name)
          object.field("geo", location.geo)
          object.field("osm", location.osm)
        }
      }
      object.objects("trailers", podcast.pointee.trailers) { object, trailer in
        object.field("url", trailer.url)
        object.field("title", trailer.title)
        if case .instant(let seconds) = trailer.published {
          object.field("published", instant: seconds)
        }
        object.field("length", trailer.length)
        object.field("type", trailer.type)
        object.field("season", trailer.season)
      }
      if let license = podcast.pointee.license {
        object.object("license") { object in
          object.field("name", license.name)
          object.field("url", license.url)
        }
      }
      object.field("medium", podcast.pointee.medium)
      object.objects("txt", podcast.pointee.txt) { object, text in
        object.field("value", text.value)
        object.field("purpose", text.purpose)
      }
      object.objects("podroll", podcast.pointee.podroll) { object, remote in
        object.field("feed_guid", remote.feedGUID)
        object.field("feed_url", remote.feedURL)
      }
      if let frequency = podcast.pointee.updateFrequency {
        object.object("update_frequency") { object in
          object.field("value", frequency.value)
          object.field("rrule", frequency.rrule)
          object.field("complete", frequency.complete)
          if case .instant(let seconds) = frequency.dtstart {
            object.field("dtstart", instant: seconds)
          }
        }
      }
      object.field("images", podcast.pointee.images)
      object.objects("social_interact", podcast.pointee.socialInteract) { object, social in
        object.field("uri", social.uri)
        object.field("protocol", social.protocol)
        object.field("account_id", social.accountID)
        object.field("account_url", social.accountURL)
        object.field("priority", social.priority)
      }
      object.objects("transcripts", podcast.pointee.transcripts) { object, transcript in
        object.field("url", transcript.url)
        object.field("type", transcript.type)
        object.field("language", transcript.language)
        object.field("rel", transcript.rel)
      }
      if let chapters = podcast.pointee.chapters {
        object.object("chapters") { object in
          object.field("url", chapters.url)
          object.field("type", chapters.type)
        }
      }
      object.objects("soundbites", podcast.pointee.soundbites) { object, soundbite in
        object.field("start", soundbite.start)
        object.field("duration", soundbite.duration)
        object.field("title", soundbite.title)
      }
      if let season = podcast.pointee.season {
        object.object("season") { object in
          object.field("number", season.number)
          object.field("name", season.name)
        }
      }
      if let episode = podcast.pointee.episode {
        object.object("episode") { object in
          object.field("number", episode.number)
          object.field("display", episode.display)
        }
      }
      object.objects("alternate_enclosures", podcast.pointee.alternateEnclosures) {
        object, enclosure in
        object.field("type", enclosure.type)
        object.field("length", enclosure.length)
        object.field("bitrate", enclosure.bitrate)
        object.field("height", enclosure.height)
        object.field("lang", enclosure.lang)
        object.field("title", enclosure.title)
        object.field("rel", enclosure.rel)
        object.field("default", enclosure.isDefault)
        object.field("sources", enclosure.sources)
      }
    }
  }
}
