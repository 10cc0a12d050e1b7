# fish completion for notif-expire.
# Hand-written; keep in sync with `notif-expire --help` (checked by CI).

complete -c notif-expire -s p -l policy -r -F -d 'Policy file: time to live per category'
complete -c notif-expire -s n -l dry-run -d 'Write what would be removed, with reasons; change nothing'
complete -c notif-expire -l archive -r -F -d 'Append every removed record to this file'
complete -c notif-expire -l format -x -a 'text github json' -d 'How to write diagnostics'
complete -c notif-expire -l max-record-bytes -x -d 'Longest JSON text accepted (default 64m; suffix k, m or g)'
complete -c notif-expire -l quarantine -r -F -d 'Move lines that are not records to this file'
complete -c notif-expire -l now -x -d 'Time to expire against (RFC 3339 or @epoch)'
complete -c notif-expire -l store -r -F -d 'Sweep this store file in place, under its lock'
complete -c notif-expire -l missing-ok -d 'With --store, a missing store is nothing to sweep'
complete -c notif-expire -l wait -x -d 'With --store, seconds to wait for the lock'
complete -c notif-expire -l progress -d 'Show progress on standard error'
complete -c notif-expire -l no-progress -d 'Do not show progress'
complete -c notif-expire -l verbose -d 'End with what was kept, removed and moved, and the time'
complete -c notif-expire -s h -l help -d 'Show help and exit'
complete -c notif-expire -l version -d 'Show version and exit'
