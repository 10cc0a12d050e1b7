import NotifJSON
import NotifModel

// notif-responses reads the answers push services gave to sends (NDJSON, or whole and
// concatenated JSON texts, in each vendor's own shape, or the apns2 command's output line),
// from its file operands or standard input, and writes one record per answer: the service,
// token, status and reason, the action to take (delivered, prune_token, retry, slow_down,
// fix_payload, fix_topic, fix_credentials, give_up), why in the vendor's words, and for
// retries when (retry_at), followed by the answer's own members. It keeps one JSON text and
// its tape in memory (at most --max-record-bytes), the counts of --summary, the tokens to
// prune with --prune, and the files --tokens and --requests name.
// FoundationEssentials is not needed: the model does its own JSON, time and I/O.

exit(ResponsesCommand.main().rawValue)
