# fish completion for notif-responses.
# Hand-written; keep in sync with `notif-responses --help` (checked by CI).

complete -c notif-responses -l now -x -d 'The time retries count from (RFC 3339 or @epoch)'
complete -c notif-responses -l attempt -x -d 'The attempt of answers that do not say'
complete -c notif-responses -l max-attempts -x -d 'Give up a retry from this attempt on'
complete -c notif-responses -l seed -x -d 'The seed of the back-off jitter'
complete -c notif-responses -l summary -d 'End with one line of counts per action and rule'
complete -c notif-responses -l tokens -r -F -d 'When each token was registered'
complete -c notif-responses -l requests -r -F -d 'The requests by id, for fix_payload answers'
complete -c notif-responses -l prune -r -F -d 'Remove the pruned tokens from this token file'
complete -c notif-responses -s n -l dry-run -d 'With --prune, write what would be removed; change nothing'
complete -c notif-responses -l archive -r -F -d 'With --prune, append the removed tokens here'
complete -c notif-responses -l wait -x -d 'With --prune, seconds to wait for the lock'
complete -c notif-responses -l format -x -a 'text github json' -d 'How to write diagnostics'
complete -c notif-responses -l max-record-bytes -x -d 'Longest JSON text accepted (default 64m; suffix k, m or g)'
complete -c notif-responses -s h -l help -d 'Show help and exit'
complete -c notif-responses -l version -d 'Show version and exit'
