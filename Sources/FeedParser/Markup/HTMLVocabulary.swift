/// What the sanitizer and the text renderer know about HTML, MathML and SVG names: which
/// elements and attributes are kept (feedparser's lists, which its sanitizer tests check), which
/// attributes hold URIs, which elements are void, and how the text renderer treats an element.
/// Tables, not branches: a name is a row.
enum HTMLVocabulary {
  /// What an element is.
  struct ElementInfo: OptionSet, Sendable {
    let rawValue: UInt32
    /// Kept in HTML (feedparser's acceptable elements).
    static let html = ElementInfo(rawValue: 1 << 0)
    /// Kept inside an `svg` element.
    static let svg = ElementInfo(rawValue: 1 << 1)
    /// Kept inside a `math` element.
    static let mathML = ElementInfo(rawValue: 1 << 2)
    /// Has no end tag (`br`, `img`): written `<br />`, an end tag dropped.
    static let void = ElementInfo(rawValue: 1 << 3)
    /// `script`, `style`: everything up to the matching end tag is dropped, markup included.
    static let rawText = ElementInfo(rawValue: 1 << 4)
    /// `applet`: dropped with everything inside it (its content is fallback for a plug-in).
    static let droppedWithContent = ElementInfo(rawValue: 1 << 5)
    /// The text renderer drops its text (`head`, `title`, `template`, `noscript`…).
    static let noText = ElementInfo(rawValue: 1 << 6)
    /// The text renderer starts and ends a line at it (`li`, `tr`, `dt`, `br`…).
    static let lineBlock = ElementInfo(rawValue: 1 << 7)
    /// The text renderer puts a blank line before and after it (`p`, `h1`, `blockquote`…).
    static let paragraphBlock = ElementInfo(rawValue: 1 << 8)
    /// `pre` (and `listing`, `xmp`, `plaintext`): white space kept as it is.
    static let preformatted = ElementInfo(rawValue: 1 << 9)
    /// Bits from here up: which URI attributes of the element are resolved against the base
    /// (feedparser's pairs, `URIAttribute` numbers them).
    static let uriShift: UInt32 = 16

    /// The element's attributes resolved as relative URIs, as a set of `URIAttribute` bits.
    var resolvedURIAttributes: UInt32 { rawValue >> Self.uriShift }
  }

  /// The attributes whose value is resolved against the base in some element; a number each.
  enum URIAttribute: UInt32, CaseIterable {
    case href = 0, src, cite, action, background, longdesc, usemap, codebase, data, profile
    case classid, poster

    var name: String {
      switch self {
      case .href: "href"
      case .src: "src"
      case .cite: "cite"
      case .action: "action"
      case .background: "background"
      case .longdesc: "longdesc"
      case .usemap: "usemap"
      case .codebase: "codebase"
      case .data: "data"
      case .profile: "profile"
      case .classid: "classid"
      case .poster: "poster"
      }
    }
  }

  /// What an attribute is.
  struct AttributeInfo: OptionSet, Sendable {
    let rawValue: UInt32
    /// Kept on HTML elements.
    static let html = AttributeInfo(rawValue: 1 << 0)
    /// Kept on SVG elements.
    static let svg = AttributeInfo(rawValue: 1 << 1)
    /// Kept on MathML elements.
    static let mathML = AttributeInfo(rawValue: 1 << 2)
    /// Holds a URI whose scheme is checked: one not in `URISchemes`' list empties the value.
    static let uri = AttributeInfo(rawValue: 1 << 3)
    /// `style`: kept with only its acceptable CSS (`CSSStyleSanitizer`).
    static let style = AttributeInfo(rawValue: 1 << 4)
    /// `xlink:…`: an element that keeps one gets the XLink namespace declared.
    static let xlink = AttributeInfo(rawValue: 1 << 5)
    /// `xmlns`: read to tell SVG and MathML apart from HTML.
    static let xmlns = AttributeInfo(rawValue: 1 << 6)
    /// Bits from here up: the attribute's `URIAttribute` number plus one (0: none).
    static let uriNumberShift: UInt32 = 16

    /// The attribute's `URIAttribute`, when it is one that some element resolves.
    var uriAttribute: URIAttribute? {
      let number = rawValue >> Self.uriNumberShift
      return number == 0 ? nil : URIAttribute(rawValue: number - 1)
    }
  }

  static let elements = elementTable()
  static let attributes = attributeTable()

  /// The rows the sanitizer asks for by name.
  static let svgRow = elements.row(of: "svg")
  static let mathRow = elements.row(of: "math")
  static let brRow = elements.row(of: "br")
  static let xmlnsRow = attributes.row(of: "xmlns")
  static let xmlnsXLinkRow = attributes.row(of: "xmlns:xlink")

  // MARK: The lists

  /// HTML elements kept by the sanitizer: feedparser's acceptable elements.
  private static let acceptableHTML = """
    a abbr acronym address area article aside audio b big blockquote br button canvas caption \
    center cite code col colgroup command datagrid datalist dd del details dfn dialog dir div \
    dl dt em event-source fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 header \
    hr i img input ins kbd keygen label legend li m map menu meter multicol nav nextid noscript \
    ol optgroup option output p pre progress q rp rt ruby s samp section select small sound \
    source spacer span strike strong sub sup table tbody td textarea tfoot th thead time tr tt \
    u ul var video
    """

  /// MathML elements kept inside `math`.
  private static let mathMLElements = """
    annotation annotation-xml maction maligngroup malignmark math menclose merror mfenced \
    mfrac mglyph mi mlabeledtr mlongdiv mmultiscripts mn mo mover mpadded mphantom \
    mprescripts mroot mrow ms mscarries mscarry msgroup msline mspace msqrt msrow mstack \
    mstyle msub msubsup msup mtable mtd mtext mtr munder munderover none semantics
    """

  /// SVG Tiny elements kept inside `svg`, in their own letter case.
  private static let svgElements = """
    a animate animateColor animateMotion animateTransform circle defs desc ellipse font-face \
    font-face-name font-face-src foreignObject g glyph hkern line linearGradient marker \
    metadata missing-glyph mpath path polygon polyline radialGradient rect set stop svg switch \
    text title tspan use
    """

  /// HTML's void elements (and the older ones feedparser writes as `<x />`).
  private static let voidElements = """
    area base basefont br col command embed frame hr img input isindex keygen link meta param \
    source track wbr
    """

  /// Attributes kept on HTML elements.
  private static let acceptableHTMLAttributes = """
    abbr accept accept-charset accesskey action align alt autocomplete autofocus axis \
    background balance bgcolor bgproperties border bordercolor bordercolordark \
    bordercolorlight bottompadding cellpadding cellspacing ch challenge char charoff charset \
    checked choff cite class clear color cols colspan compact contenteditable controls coords \
    data datafld datapagesize datasrc datetime default delay dir disabled draggable dynsrc \
    enctype end face for form frame galleryimg gutter headers height hidden hidefocus high \
    href hreflang hspace icon id inputmode ismap keytype label lang leftspacing list longdesc \
    loop loopcount loopend loopstart low lowsrc max maxlength media method min multiple name \
    nohref noshade nowrap open optimum pattern ping point-size poster pqg preload prompt \
    radiogroup readonly rel repeat-max repeat-min replace required rev rightspacing rows \
    rowspan rules scope selected shape size span src start step style summary suppress \
    tabindex target template title toppadding type unselectable urn usemap valign value \
    variable volume vrml vspace width wrap xml:lang
    """

  /// Attributes kept on MathML elements.
  private static let mathMLAttributes = """
    accent accentunder actiontype align alignmentscope altimg altimg-height altimg-valign \
    altimg-width alttext bevelled charalign close columnalign columnlines columnspacing \
    columnspan columnwidth crossout decimalpoint denomalign depth dir display displaystyle \
    edge encoding equalcolumns equalrows fence fontstyle fontweight form frame framespacing \
    groupalign height href id indentalign indentalignfirst indentalignlast indentshift \
    indentshiftfirst indentshiftlast indenttarget infixlinebreakstyle largeop length \
    linebreak linebreakmultchar linebreakstyle lineleading linethickness location \
    longdivstyle lquote lspace mathbackground mathcolor mathsize mathvariant maxsize \
    minlabelspacing minsize movablelimits notation numalign open other overflow position \
    rowalign rowlines rowspacing rowspan rquote rspace scriptlevel scriptminsize \
    scriptsizemultiplier selection separator separators shift side src stackalign stretchy \
    subscriptshift superscriptshift symmetric voffset width xlink:href xlink:show xlink:type \
    xmlns xmlns:xlink
    """

  /// Attributes kept on SVG elements, in their own letter case.
  private static let svgAttributes = """
    accent-height accumulate additive alphabetic arabic-form ascent attributeName \
    attributeType baseProfile bbox begin by calcMode cap-height class color color-rendering \
    content cx cy d descent display dur dx dy end fill fill-opacity fill-rule font-family \
    font-size font-stretch font-style font-variant font-weight from fx fy g1 g2 glyph-name \
    gradientUnits hanging height horiz-adv-x horiz-origin-x id ideographic k keyPoints \
    keySplines keyTimes lang marker-end marker-mid marker-start markerHeight markerUnits \
    markerWidth mathematical max min name offset opacity orient origin overline-position \
    overline-thickness panose-1 path pathLength points preserveAspectRatio r refX refY \
    repeatCount repeatDur requiredExtensions requiredFeatures restart rotate rx ry slope \
    stemh stemv stop-color stop-opacity strikethrough-position strikethrough-thickness stroke \
    stroke-dasharray stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit \
    stroke-opacity stroke-width systemLanguage target text-anchor to transform type u1 u2 \
    underline-position underline-thickness unicode unicode-range units-per-em values version \
    viewBox visibility width widths x x-height x1 x2 xlink:actuate xlink:arcrole xlink:href \
    xlink:role xlink:show xlink:title xlink:type xml:base xml:lang xml:space xmlns xmlns:xlink \
    y y1 y2 zoomAndPan
    """

  /// Attributes holding a URI, whose scheme is checked wherever they are kept.
  private static let uriAttributes = """
    href src action background cite data dynsrc lowsrc longdesc poster usemap xlink:href \
    altimg icon datasrc codebase classid profile
    """

  /// (element, attribute) pairs whose relative URI is resolved: feedparser's list.
  private static let resolvedPairs: [(String, URIAttribute)] = [
    ("a", .href), ("applet", .codebase), ("area", .href), ("audio", .src),
    ("blockquote", .cite), ("body", .background), ("del", .cite), ("form", .action),
    ("frame", .longdesc), ("frame", .src), ("iframe", .longdesc), ("iframe", .src),
    ("head", .profile), ("img", .longdesc), ("img", .src), ("img", .usemap),
    ("input", .src), ("input", .usemap), ("ins", .cite), ("link", .href),
    ("object", .classid), ("object", .codebase), ("object", .data), ("object", .usemap),
    ("q", .cite), ("script", .src), ("source", .src), ("video", .poster), ("video", .src),
  ]

  /// Elements whose text the text renderer drops: not content a reader sees.
  private static let noTextElements = """
    script style applet head title template noscript noembed noframes iframe object select \
    datalist option optgroup textarea button
    """

  /// Elements the text renderer ends a line at.
  private static let lineBlockElements = """
    br li tr dt dd div caption figcaption summary legend label option address center header \
    footer nav main article aside section details fieldset form dialog
    """

  /// Elements the text renderer sets apart by a blank line.
  private static let paragraphBlockElements = """
    p h1 h2 h3 h4 h5 h6 blockquote pre ul ol dl menu dir table figure hr listing xmp \
    plaintext
    """

  /// The names of the lists, each with what its list says, gathered on their bytes into one
  /// table, a name in several lists given all they say (making a `String` a name and merging
  /// them in a dictionary took some 2.5 million instructions, once a process).
  private struct Names<Info: OptionSet & BitwiseCopyable> where Info.RawValue == UInt32 {
    var bytes: [UInt8] = []
    var entries: [HTMLNameTable<Info>.Entry] = []

    /// Each name of `list` (split at spaces and line ends) with `info`.
    mutating func add(_ list: String, _ info: Info) {
      var list = list
      list.withUTF8 { text in
        var index = 0
        while index < text.count {
          while index < text.count && (text[index] == 0x20 || text[index] == 0x0A) { index += 1 }
          let start = index
          while index < text.count && text[index] != 0x20 && text[index] != 0x0A { index += 1 }
          guard index > start else { continue }
          entries.append(.init(start: bytes.count, count: index - start, info: info))
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<index]))
        }
      }
    }

    /// The table, rows in the order the names first come.
    func table() -> HTMLNameTable<Info> {
      bytes.withUnsafeBufferPointer { bytes in
        entries.withUnsafeBufferPointer {
          HTMLNameTable(bytes, entries: $0, foldsCase: true) { $0.union($1) }
        }
      }
    }
  }

  private static func elementTable() -> HTMLNameTable<ElementInfo> {
    var names = Names<ElementInfo>()
    names.add(acceptableHTML, .html)
    names.add(mathMLElements, .mathML)
    names.add(svgElements, .svg)
    names.add(voidElements, .void)
    names.add("script style", .rawText)
    names.add("applet", .droppedWithContent)
    names.add(noTextElements, .noText)
    names.add(lineBlockElements, .lineBlock)
    names.add(paragraphBlockElements, .paragraphBlock)
    names.add("pre listing xmp plaintext", .preformatted)
    for (element, attribute) in resolvedPairs {
      names.add(element, ElementInfo(rawValue: 1 << (ElementInfo.uriShift + attribute.rawValue)))
    }
    // SVG's camel-case names: the table folds case, so one row serves both spellings, and the
    // sanitizer writes the row's own (`linearGradient`, never `lineargradient`).
    return names.table()
  }

  private static func attributeTable() -> HTMLNameTable<AttributeInfo> {
    var names = Names<AttributeInfo>()
    names.add(acceptableHTMLAttributes, .html)
    names.add(mathMLAttributes, .mathML)
    names.add(svgAttributes, .svg)
    names.add(uriAttributes, .uri)
    names.add("style", .style)
    names.add("xmlns", .xmlns)
    // `xlink:…` names are marked so (all come from the lists above).
    let prefix = Array("xlink:".utf8)
    for index in names.entries.indices {
      let entry = names.entries[index]
      if entry.count >= prefix.count,
        names.bytes[entry.start..<entry.start + prefix.count].elementsEqual(prefix)
      {
        names.entries[index].info.formUnion(.xlink)
      }
    }
    for attribute in URIAttribute.allCases {
      let number = AttributeInfo(
        rawValue: (attribute.rawValue + 1) << AttributeInfo.uriNumberShift)
      names.add(attribute.name, number)
    }
    return names.table()
  }
}

extension HTMLNameTable {
  /// The row of a name the table is known to hold (-1 if it does not).
  func row(of name: String) -> Int {
    var name = name
    return name.withUTF8 { row($0.baseAddress!, $0.count) } ?? -1
  }
}
