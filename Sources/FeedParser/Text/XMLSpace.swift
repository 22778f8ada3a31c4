/// XML 1.0's white space (production 3: space, tab, CR, LF), which every step of the parser
/// trims or skips: one definition, for bytes and for scalars.
extension UInt8 {
  var isXMLSpace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

extension Unicode.Scalar {
  var isXMLSpace: Bool { self == " " || self == "\n" || self == "\r" || self == "\t" }
}
