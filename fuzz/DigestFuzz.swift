// Fuzz targets of notif-digest.
//
// `digest-objects`: the reader of digest objects, driven through `notif-digest --merge` (with
// `--merge-unread` when the input's last byte says so) on the input as a file, then on two to five
// digest objects of one key made from the input's bytes, each number of each (`count`,
// `unread_count`, the actors' and categories' counts, `items_omitted`, `digesting.limit`)
// either agreeing with the others or one of the limit numbers; and notif-show on the same
// objects, as text, as a web page and as a page for a mail.
//
// `digest-records`: notif-digest on lines of any bytes as records, with the windows and options
// the input's last byte picks, as a filter and in place; and the input as a TZif file and as a
// POSIX TZ rule (the footer of one), which `--tz` reads from the tz database.
//
// Properties:
//   (a) notif-digest exits 0, 1 or 2 (and the filter and `--merge` of readable files 0 or 1,
//       but 2 with nothing written for one that starts as a compressed stream does:
//       `Compression`);
//   (b) every line it writes is one JSON object, every count in it a whole number from 0 to
//       2^53 - 1;
//   (c) merging is idempotent: when `--merge` exits 0, merging its output again, with the same
//       options, exits 0 and writes the same bytes;
//   (d) every digest notif-digest writes, `--merge` takes: it exits 0 on them;
//   (e) in place with `--out`, the digests written are the filter's, byte for byte, and the
//       store keeps one line for each of the input's, the same or with `digested_at` added or
//       set;
//   (f) a TZif file or TZ rule of any bytes is read or refused, and the offsets it gives are
//       within two days;
//   (g) notif-show reads digest objects of any bytes: it exits 0 or 1, and the page for a mail
//       holds only the tags it writes, and its links are safe (`checkShowsDigests`).

func fuzzDigestObjects(_ input: UnsafeRawBufferPointer) {
  let flags = input.last ?? 0
  let options = ["--merge"] + (flags & 1 != 0 ? ["--merge-unread"] : [])
  let objects = scratchPath("digests.ndjson", holding: input)
  let (merged, status) = runTool(DigestCommand.self, options + [objects], output: "merged.ndjson")
  let compressed = Compression(startOf: input) != nil
  require(
    compressed ? status == .failure && merged.isEmpty : status != .failure,
    "--merge exits \(status) on a readable file")
  checkDigestLines(merged, of: "notif-digest --merge")
  if status == .success { checkDigestMergeIsIdempotent(merged, options) }

  let made = limitDigestObjects(input)
  let madePath = made.withUnsafeBytes { scratchPath("limit-digests.ndjson", holding: $0) }
  let (madeMerged, madeStatus) = runTool(
    DigestCommand.self, options + [madePath], output: "limit-merged.ndjson")
  require(madeStatus != .failure, "--merge of made digests exits 2")
  checkDigestLines(madeMerged, of: "notif-digest --merge")
  if madeStatus == .success { checkDigestMergeIsIdempotent(madeMerged, options) }
  if !compressed { checkShowsDigests(objects, flags: flags) }
  checkShowsDigests(madePath, flags: flags)
}

/// (g): notif-show on the digest objects of `path`, as text (with hidden previews when the
/// flags say so) and as a page for a mail.
func checkShowsDigests(_ path: String, flags: UInt8) {
  var options = ["--now", "2026-11-22T09:00:00Z", "--color", "never", "--width", "40"]
  if flags & 2 != 0 { options.append("--hidden-previews") }
  let (_, status) = runTool(ShowCommand.self, options + [path], output: "digests-show.txt")
  require(status != .failure, "notif-show exits 2 on a readable file of digests")
  let (page, pageStatus) = runTool(
    ShowCommand.self, options + ["--to", "email", path], output: "digests-show.html")
  require(
    pageStatus == status, "notif-show exits \(pageStatus) with --to email, else \(status)")
  checkPageTags(String(decoding: page, as: UTF8.self), emailTags, "the page for a mail")
}

/// The tags of notif-show's page for a mail: no script, image or details; one style element,
/// its dark scheme, which a client that drops it does without.
let emailTags: Set<String> = {
  let names = [
    "html", "head", "meta", "title", "style", "body", "table", "tr", "td", "h1", "h2", "p",
    "span", "strong", "br", "a",
  ]
  return Set(names + names.map { "/" + $0 } + ["!DOCTYPE"])
}()

func fuzzDigestRecords(_ input: UnsafeRawBufferPointer) {
  let flags = Int(input.last ?? 0)
  var options = ["--now", "2026-11-22T09:00:00Z"]
  options +=
    flags & 1 == 0 ? ["--window", "1h"] : ["--at", "08:00,02:30", "--tz", "Europe/Berlin"]
  if flags & 2 != 0 { options += ["--lookback", "10m"] }
  if flags & 4 != 0 { options += ["--max-items", "2"] }
  if flags & 8 != 0 { options += ["--item-end", "last", "--item-limit", "2"] }
  if flags & 16 != 0 { options.append("--flush") }
  if flags & 32 != 0 { options += ["--key", "app,payload.k", "--actor", "title"] }
  if flags & 64 != 0 { options += ["--max-record-bytes", "\(64 + flags)"] }

  // (a), (b), (d): the filter, then --merge of what it wrote.
  let whole = input.last == 0x0A || input.isEmpty ? Array(input) : Array(input) + [0x0A]
  let records = whole.withUnsafeBytes { scratchPath("records.ndjson", holding: $0) }
  let (digests, status) = runTool(DigestCommand.self, options + [records], output: "digests.out")
  let compressed = Compression(startOf: input) != nil
  require(
    compressed ? status == .failure && digests.isEmpty : status != .failure,
    "notif-digest exits \(status) on a readable file")
  checkDigestLines(digests, of: "notif-digest")
  let written = digests.withUnsafeBytes { scratchPath("written.ndjson", holding: $0) }
  let (merged, mergeStatus) = runTool(
    DigestCommand.self, ["--merge", written], output: "merged.ndjson")
  require(
    mergeStatus == .success,
    "--merge exits \(mergeStatus) on what notif-digest wrote:\n\(String(decoding: digests, as: UTF8.self))"
  )
  checkDigestMergeIsIdempotent(merged, ["--merge"])

  // (e) In place: the same digests, and every line kept.
  let store = scratchFolder + "/digest-store.ndjson"
  let out = scratchFolder + "/digest-out.ndjson"
  whole.withUnsafeBytes { writeReplacing(store, $0) }
  unlink(out)
  let (_, inPlace) = runTool(
    DigestCommand.self, options + ["--store", store, "--out", out], output: "in-place.out")
  require(inPlace == status, "in place exits \(inPlace), as a filter \(status)")
  let outBytes = readDigestFile(out)
  require(
    outBytes == digests,
    "in place wrote other digests than the filter:\n\(String(decoding: outBytes, as: UTF8.self))\n"
      + "not:\n\(String(decoding: digests, as: UTF8.self))")
  var before = digestLines(whole)
  let after = digestLines(readDigestFile(store))
  // A store that is rewritten loses its byte order mark; one with nothing to mark is left as
  // it was, the mark too.
  let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
  if before.first?.starts(with: mark) == true && after.first?.starts(with: mark) != true {
    before[0].removeFirst(3)
  }
  require(
    after.count == before.count, "in place the store has \(after.count) lines, not \(before.count)")
  let added = Array(#","digested_at":"2026-11-22T09:00:00Z""#.utf8)
  let set = Array(#""2026-11-22T09:00:00Z""#.utf8)
  for (old, new) in zip(before, after) where old != new {
    // What differs between the two, once their common start and end are set aside.
    var prefix = 0
    while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix && suffix < new.count - prefix
      && old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    let was = Array(old[prefix..<old.count - suffix])
    let now = Array(new[prefix..<new.count - suffix])
    require(
      (was.isEmpty && now == added) || (was == Array("null".utf8) && now == set),
      "in place changed a line other than by digested_at: \(String(decoding: new, as: UTF8.self))")
  }

  // (f) The input as a zone file and as a rule.
  if let parsed = ZoneRules.parse(Array(input)) {
    for (_, offset) in parsed.transitions.prefix(64) {
      require(abs(Int(offset)) < 2 * 86_400, "a TZif offset of \(offset)")
    }
    if let rule = parsed.rule {
      for seconds: Int64 in [-62_135_596_800, 0, 1_795_338_000, 253_402_300_799] {
        require(abs(Int(rule.offset(at: seconds))) < 2 * 86_400, "a TZ rule's offset")
      }
    }
  }
  if let rule = PosixRule(text(input)) {
    for seconds: Int64 in [-62_135_596_800, 0, 1_795_338_000, 253_402_300_799] {
      require(abs(Int(rule.offset(at: seconds))) < 200 * 3600, "a TZ rule's offset")
    }
  }
}

/// Checks that merging `merged` again with `options` exits 0 and writes the same bytes.
func checkDigestMergeIsIdempotent(_ merged: [UInt8], _ options: [String]) {
  let again = merged.withUnsafeBytes { scratchPath("merged-again.ndjson", holding: $0) }
  let (remerged, status) = runTool(DigestCommand.self, options + [again], output: "remerged.ndjson")
  require(status == .success, "merging the merged digests exits \(status)")
  require(
    remerged == merged,
    "merging is not idempotent:\n\(String(decoding: merged, as: UTF8.self))\nthen:\n"
      + String(decoding: remerged, as: UTF8.self))
}

/// Checks that `output` is lines of one JSON object each, with every count of a digest object
/// a whole number from 0 to `FieldLimits.largest`.
func checkDigestLines(_ output: [UInt8], of tool: String) {
  checkJSONLines(output, of: tool)
  checkTallies(
    output, of: tool, counts: [DigestField.count, .unreadCount, .itemsOmitted].map(\.key),
    lists: [DigestField.actors.key, DigestField.categories.key], inner: ["count"])
}

/// The lines of `bytes`, split at line feeds, the last one without one included.
func digestLines(_ bytes: [UInt8]) -> [[UInt8]] {
  var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
  if lines.last?.isEmpty == true { lines.removeLast() }
  return lines
}

/// The bytes of the file at `path`, or none.
func readDigestFile(_ path: String) -> [UInt8] {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { return [] }
  defer { close(fd) }
  return contents(fd, name: path)
}

/// Two to five digest objects of one key and window made from `input` (see the top of this
/// file), so that `--merge` adds them up.
func limitDigestObjects(_ input: UnsafeRawBufferPointer) -> [UInt8] {
  var stream = ByteStream(bytes: input)
  var text = ""
  let limit = stream.next() & 1 == 0 ? "null" : stream.number("3")
  for n in 0..<(2 + Int(stream.next() % 4)) {
    let count = stream.number(["1", "2", "3"][n % 3])
    let whole = Int64(count).flatMap { FieldLimits.positive.contains($0) ? $0 : nil } ?? 1
    let item =
      #"{"id":"d\#(n)","app":"com.example.social","thread_id":"t","created_at":"2026-11-22T08:0\#(n):00Z"}"#
    let window = stream.next() & 1 == 0 ? "08:00:00Z" : "08:30:00Z"
    let readAt = stream.next() % 4 == 0 ? #""2026-11-22T09:30:00Z""# : "null"
    // A digest_id that agrees with nothing: --merge takes it, and drops its repeats.
    let id = String(repeating: "0123456789abcdef", count: 2).prefix(31) + "\(n)"
    text +=
      #"{"digest_id":"\#(id)","key":{"app":"com.example.social","thread_id":"t"},"#
      + #""window_start":"2026-11-22T08:00:00Z","window_end":"2026-11-22T\#(window)","#
      + #""count":\#(count),"unread_count":\#(stream.number("1")),"latest_at":"2026-11-22T08:0\#(n):00Z","#
      + #""actors":[{"actor":"Ann","count":\#(stream.number("1")),"latest_at":"2026-11-22T08:00:00Z"}],"#
      + #""categories":[{"category":"like","count":\#(stream.number(count))}],"#
      + #""items":[\#(item)],"items_omitted":\#(stream.number("\(whole - 1)")),"#
      + #""summary":"s","hidden_summary":"h","read_at":\#(readAt),"#
      + #""digesting":{"key":["app","thread_id"],"actor":"summary_arg","window":"1h","#
      + #""align":"1970-01-01T00:00:00Z","at":null,"tz":null,"lookback":null,"#
      + #""max_items":\#(stream.next() & 1 == 0 ? "null" : stream.number("4")),"#
      + #""items":"first","limit":\#(limit)}}"# + "\n"
  }
  return Array(text.utf8)
}
