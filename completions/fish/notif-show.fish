# fish completion for notif-show.
# Hand-written; keep in sync with `notif-show --help` (checked by CI).

complete -c notif-show -l all-pushes -d 'Show pushes the device does not list too'
complete -c notif-show -l apps -r -F -d 'Apps file, for the names and icons of apps'
complete -c notif-show -l ascii -d 'Draw marks and the ellipsis in ASCII'
complete -c notif-show -l categories -r -F -d 'Category registry, for the action buttons'
complete -c notif-show -l color -x -a 'auto always never' -d 'Color the text'
complete -c notif-show -l format -x -a 'text html email' -d 'What to write'
complete -c notif-show -l hidden-previews -d 'Show placeholders instead of titles and bodies'
complete -c notif-show -l last-seen -x -d 'Mark as new only records created after this time'
complete -c notif-show -l limit -x -d 'Show only the first items of the view'
complete -c notif-show -l max-record-bytes -x -d 'Longest JSON text accepted (default 64m; suffix k, m or g)'
complete -c notif-show -l now -x -d 'Reference time of the relative times'
complete -c notif-show -l sort -x -a 'time relevance' -d 'What ranks the list'
complete -c notif-show -l view -x -a 'feed chat' -d 'Order of the list'
complete -c notif-show -l width -x -d 'Line width in columns (20 to 1000)'
complete -c notif-show -s h -l help -d 'Show help and exit'
complete -c notif-show -l version -d 'Show version and exit'
