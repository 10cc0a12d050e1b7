# fish completion for notif-group.
# Hand-written; keep in sync with `notif-group --help` (checked by CI).

complete -c notif-group -l all-pushes -d 'Group pushes the device does not list too'
complete -c notif-group -l by -x -a 'thread app none' -d 'What makes a group'
complete -c notif-group -l format -x -a 'text github json' -d 'How to write diagnostics'
complete -c notif-group -s j -l jobs -x -d 'Threads that group a large file'
complete -c notif-group -l last-seen -x -d 'Count as new only records created after this time'
complete -c notif-group -l item-limit -x -d 'Keep at most this many items per group'
complete -c notif-group -l max-record-bytes -x -d 'Longest JSON text accepted (default 64m; suffix k, m or g)'
complete -c notif-group -l merge -d 'Read group objects and merge those of the same group'
complete -c notif-group -l no-items -d 'Write only counts and the leading record'
complete -c notif-group -l order -x -a 'feed chat' -d 'Order of the items'
complete -c notif-group -l sort -x -a 'time relevance' -d 'What ranks the records'
complete -c notif-group -s h -l help -d 'Show help and exit'
complete -c notif-group -l version -d 'Show version and exit'
