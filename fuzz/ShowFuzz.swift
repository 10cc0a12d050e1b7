// Fuzz target `show`: notif-show on the input as a file of records or group objects, through
// its own command line (`ShowRun` over `RecordReader`, `EntryReader`, `TextLayout`), as text
// at a width from the input's last byte, with --sort relevance, --order chat, --limit 2,
// --hidden-previews, --oneline, --link-key url --link-scheme myapp or --locale de when its
// bits say so, as HTML, and as HTML for a mail.
//
// Properties:
//   (a) notif-show exits 0, 1 or 2;
//   (b) the text is valid UTF-8 with no character `Diagnostic.visible` always writes visibly
//       (its generated table: no control character but the line feed, so no escape sequence
//       or C1 control; no bidirectional control; nothing that draws nothing on its own), and
//       every line is at most the width in display columns;
//   (c) every tag of the page is one notif-show writes (payload text has its `<` escaped, so
//       it can open none): no `<script`, `<img`, `<iframe`, one `<style` at most, and each
//       `<a` a link of an https, http (or, with --link-scheme, myapp) URL with
//       rel="noopener noreferrer"; and of the page for a mail (`--to email`), whose one style
//       element holds only its dark scheme;
//   (d) `--jobs 3`, the file read in chunks of 16 to 271 bytes (from the last byte) on worker
//       threads, writes the text and the diagnostics of one thread, and exits as it does.

func fuzzShow(_ input: UnsafeRawBufferPointer) {
  let flags = input.last ?? 0
  let width = 20 + Int(flags % 61)
  var options = ["--now", "2026-11-22T09:00:00Z", "--color", "never"]
  if flags & 1 != 0 { options += ["--sort", "relevance"] }
  if flags & 2 != 0 { options += ["--order", "chat"] }
  if flags & 4 != 0 { options += ["--limit", "2"] }
  if flags & 8 != 0 { options.append("--hidden-previews") }
  if flags & 32 != 0 { options += ["--link-key", "url", "--link-scheme", "myapp"] }
  if flags & 64 != 0 { options += ["--locale", "de"] }
  // --oneline is a view for a terminal: the text only.
  let textView = flags & 16 != 0 ? ["--oneline"] : []
  let records = scratchPath("show.ndjson", holding: input)

  let (text, _) = runTool(
    ShowCommand.self, options + textView + ["--width", "\(width)", records], output: "show.txt")
  guard let shown = String(validatingUTF8: text.map { CChar(bitPattern: $0) } + [0]) else {
    fail("the text is not UTF-8")
  }
  for scalar in shown.unicodeScalars where scalar != "\n" {
    require(
      Diagnostic.escape(scalar.value) != .always,
      "U+\(String(scalar.value, radix: 16)), which is always written visibly, in the text")
  }
  for line in shown.split(separator: "\n") {
    require(DisplayWidth.of(line) <= width, "a line wider than \(width) columns: \(line)")
  }

  let (page, _) = runTool(
    ShowCommand.self, options + ["--to", "html", records], output: "show.html")
  checkPageTags(String(decoding: page, as: UTF8.self), pageTags, "the page")

  let (mail, _) = runTool(
    ShowCommand.self, options + ["--to", "email", records], output: "show-email.html")
  checkPageTags(String(decoding: mail, as: UTF8.self), emailTags, "the page for a mail")

  let chunkSize = 16 + Int(flags)
  let textOptions = options + textView + ["--width", "\(width)", records]
  let one = showRun(textOptions + ["--jobs", "1"], chunkSize: chunkSize, output: "show-one")
  let many = showRun(textOptions + ["--jobs", "3"], chunkSize: chunkSize, output: "show-many")
  requireSameRuns(one, many, "chunks of \(chunkSize) bytes")
}

/// Runs notif-show's `ShowRun` on `arguments` with the chunk size given (`capturedRun`).
func showRun(_ arguments: [String], chunkSize: Int, output: String)
  -> (status: ExitStatus, stdout: [UInt8], stderr: [UInt8])
{
  let options: ShowOptions
  do {
    let scanned = try OptionScanner.scan(arguments, ShowCommand.options)
    options = try ShowCommand.configure(scanned, environment: ToolEnvironment())
  } catch {
    fail("notif-show \(arguments): \(error)")
  }
  return capturedRun(output: output) { stdout, stderr in
    var run = ShowRun(options: options, chunkSize: chunkSize)
    return run.execute(stdout: &stdout, stderr: &stderr)
  }
}

/// The tags notif-show's page is made of, opening and closing.
let pageTags: Set<String> = {
  let names = [
    "html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "h3", "p", "section",
    "article", "header", "footer", "div", "span", "time", "ul", "li", "code", "details",
    "summary", "a",
  ]
  return Set(names + names.map { "/" + $0 } + ["!DOCTYPE"])
}()

/// Requires every tag of `html` to be one of `allowed`, one style element at most, and each
/// link one of a safe URL (`TapLink`) that opens with no opener and no referrer.
func checkPageTags(_ html: String, _ allowed: Set<String>, _ what: String) {
  var styles = 0
  for tag in html.split(separator: "<").dropFirst() {
    let name = tag.prefix { $0 != " " && $0 != ">" && $0 != "\n" }
    require(allowed.contains(String(name)), "\(what) holds the tag '<\(name)'")
    if name == "style" { styles += 1 }
    if name == "a" {
      let safe = ["a href=\"https://", "a href=\"http://", "a href=\"myapp:"].contains {
        tag.lowercased().hasPrefix($0)
      }
      require(safe, "\(what) links to something else than https, http or myapp: <\(tag)")
      require(
        tag.prefix { $0 != ">" }.contains("rel=\"noopener noreferrer\""),
        "\(what) has a link without rel=\"noopener noreferrer\": <\(tag)")
    }
  }
  require(styles <= 1, "\(what) holds \(styles) style elements")
}
