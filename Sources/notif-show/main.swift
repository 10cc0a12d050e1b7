import NotifJSON
import NotifModel

// notif-show reads notification records (notif-parse, notif-expire or notif-mark output) or
// group objects (notif-group output, with or without notif-summarize's summaries) from its file
// operands or standard input, and writes what a person would see: the feed (newest first) or
// chat (newest last) as text for a terminal, cut to --width with every control character of
// the payload written visibly, or as one self-contained HTML page (--to html). It is the
// end of a pipeline: it writes nothing until its input ends, since the newest item may come
// last. Memory: every item shown, as the strings it shows (O(records)); with --limit N, the N
// first of the view in a heap (O(N)), whatever the input's size; of each string no more than
// the page can show (ShownText), whatever its length. FoundationEssentials is not needed.

exit(ShowCommand.main().rawValue)
