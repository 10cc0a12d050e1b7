// NotifText: how much room text takes on a screen. Users: notif-parse's --lint now (the body's
// banner lines, CopyLint.swift), and notif-show next, which will also need to cut text to a
// width without splitting a grapheme cluster (not written yet: it belongs here when it is).
//
// What is here: the display width of a code point, a grapheme cluster and a text
// (`DisplayWidth.swift`), over a table generated from Unicode data by scripts/gen-width.py
// (`DisplayWidthTable.swift`, never edited by hand). No Foundation, no state: pure functions
// of their arguments.
