// NotifText: how much room text takes on a screen, and text laid out in that room.
// Users: notif-parse, notif-show.
// notif-parse's --lint (the body's banner lines, CopyLint.swift) and notif-show (titles on one
// line, bodies on two, cut with an ellipsis): one measure of width for both.
//
// What is here: the display width of a code point, a grapheme cluster and a text, and whether
// a code point is East Asian Ambiguous (`DisplayWidth.swift`), over tables generated from the
// Unicode Character Database by scripts/gen-width.py (`DisplayWidth+Generated.swift`, never
// edited by hand); lines wrapped and cut to a width without splitting a grapheme cluster
// (`TextLayout.swift`). No Foundation, no state: pure functions of their arguments.
