import NotifJSON

/// An app's icon, as the web page embeds it: a PNG, JPEG or SVG image of at most `maxBytes`,
/// from a file or a `data:` URI of the apps file (`AppDirectory`), written into the page as a
/// `data:` URI in base64, so the page still makes no request. The type is read from the bytes
/// (PNG's signature, JPEG's start of image, an XML text with an `<svg` element), never from a
/// file name. An SVG image shown as an image runs no script and loads nothing, and the page's
/// Content-Security-Policy allows images from `data:` URIs only.
struct AppIcon: Equatable {
  /// The kinds of image an icon may be, by their media types.
  enum Kind: String, CaseIterable {
    case png = "image/png"
    case jpeg = "image/jpeg"
    case svg = "image/svg+xml"
  }

  /// Why an icon cannot be used: one lowercase line.
  struct Problem: Error, Equatable {
    var message: String
  }

  /// The largest icon, in bytes: a 180-pixel app icon as a PNG is some 20 KB, an SVG one a few.
  static let maxBytes = 64 * 1024

  let kind: Kind
  let bytes: [UInt8]

  /// The icon `text` names, as an apps file gives it: a `data:` URI in base64, or the name of
  /// a file, relative to `folder` (`""` or a path ending in `/`) unless it starts with `/`.
  init(named text: String, folder: String) throws(Problem) {
    if text.utf8.count >= 5, text.prefix(5).lowercased() == "data:" {
      try self.init(dataURI: text)
    } else {
      let path = text.hasPrefix("/") ? text : folder + text
      try self.init(kind: nil, bytes: try Self.readFile(path, shown: text))
    }
  }

  /// The image in `bytes`, which must be of `kind` when it is given.
  init(kind expected: Kind?, bytes: [UInt8]) throws(Problem) {
    guard bytes.count <= Self.maxBytes else { throw Self.tooLarge(bytes.count) }
    guard let kind = Self.kind(of: bytes) else {
      throw Problem(message: "not a PNG, JPEG or SVG image")
    }
    if let expected, expected != kind {
      throw Problem(message: "the data is \(kind.rawValue), not \(expected.rawValue)")
    }
    self.kind = kind
    self.bytes = bytes
  }

  /// A `data:image/png;base64,...` URI (or `image/jpeg`, `image/svg+xml`).
  init(dataURI text: String) throws(Problem) {
    let bytes = Array(text.utf8)
    guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")) else {
      throw Problem(message: "a data: URI has a comma before its data")
    }
    let header = String(decoding: bytes[5..<comma], as: UTF8.self).lowercased()
    guard header.hasSuffix(";base64"),
      let kind = Kind(rawValue: String(header.dropLast(";base64".count)))
    else {
      throw Problem(
        message:
          "a data: URI is data:image/png;base64, data:image/jpeg;base64, or data:image/svg+xml;base64,"
      )
    }
    let encoded = bytes[(comma + 1)...]
    guard encoded.count <= (Self.maxBytes + 2) / 3 * 4 + 4 else {
      throw Problem(message: "the image is more than the limit of \(Self.maxBytes) bytes")
    }
    guard let decoded = Base64.decode(encoded) else {
      throw Problem(message: "the data of a data: URI is not base64")
    }
    try self.init(kind: kind, bytes: decoded)
  }

  /// The icon as a `data:` URI, in base64.
  var dataURI: String {
    "data:\(kind.rawValue);base64,\(Base64.encode(bytes))"
  }

  /// What `bytes` hold: PNG's eight-byte signature, JPEG's `FF D8 FF`, or UTF-8 text that
  /// starts (after a byte order mark and white space) with `<` and has an `<svg` element.
  static func kind(of bytes: [UInt8]) -> Kind? {
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
    guard start < bytes.count, bytes[start] == UInt8(ascii: "<"),
      String(validating: bytes, as: UTF8.self) != nil
    else { return nil }
    let svg = Array("<svg".utf8)
    var at = start
    while at + svg.count <= bytes.count {
      if bytes[at] == svg[0] && bytes[at..<(at + svg.count)].elementsEqual(svg) {
        return .svg
      }
      at += 1
    }
    return nil
  }

  /// The bytes of the regular file at `path`, at most `maxBytes` of them. A FIFO or a device
  /// is refused before it is read, so a name cannot block.
  private static func readFile(_ path: String, shown: String) throws(Problem) -> [UInt8] {
    do {
      return try readWholeFile(path: path, limit: maxBytes, regularOnly: true)
    } catch {
      switch error.step {
      case .open(let code):
        throw Problem(
          message: SystemError(path: path, doing: "cannot open '\(shown)'", errno: code).message)
      case .notRegular:
        throw Problem(message: "'\(shown)' is not a regular file")
      case .read(let code):
        throw Problem(
          message: SystemError(path: path, doing: "cannot read '\(shown)'", errno: code).message)
      case .tooLong(let size):
        throw tooLarge(size)
      }
    }
  }

  /// An image of `size` bytes, more than `maxBytes`.
  private static func tooLarge(_ size: Int) -> Problem {
    Problem(message: "the image is \(size) bytes, more than the limit of \(maxBytes)")
  }
}

/// Base64 (RFC 4648, section 4: the standard alphabet, with padding), for the icons of the web
/// page.
enum Base64 {
  static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// `bytes` in base64.
  ///
  /// - Complexity: O(n).
  static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var at = 0
    while at < bytes.count {
      let count = min(3, bytes.count - at)
      let a = UInt32(bytes[at])
      let b = count > 1 ? UInt32(bytes[at + 1]) : 0
      let c = count > 2 ? UInt32(bytes[at + 2]) : 0
      let group = a << 16 | b << 8 | c
      out.append(alphabet[Int(group >> 18 & 63)])
      out.append(alphabet[Int(group >> 12 & 63)])
      out.append(count > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
      out.append(count > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
      at += 3
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes `text` encodes; nil when it is not base64: a character outside the alphabet
  /// (white space included), a length that is no multiple of 4, padding other than at the end.
  ///
  /// - Complexity: O(n).
  static func decode<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
    let text = Array(text)
    guard text.count % 4 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(text.count / 4 * 3)
    var at = 0
    while at < text.count {
      var group: UInt32 = 0
      var padding = 0
      for offset in 0..<4 {
        let byte = text[at + offset]
        let value: UInt32
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "+"): value = 62
        case UInt8(ascii: "/"): value = 63
        case UInt8(ascii: "=") where at + 4 == text.count && offset >= 2:
          padding += 1
          value = 0
        default: return nil
        }
        if padding > 0 && byte != UInt8(ascii: "=") { return nil }  // `=` then a letter
        group = group << 6 | value
      }
      out.append(UInt8(group >> 16 & 0xFF))
      if padding < 2 { out.append(UInt8(group >> 8 & 0xFF)) }
      if padding < 1 { out.append(UInt8(group & 0xFF)) }
      at += 4
    }
    return out
  }
}
