# fish completion for notif-summarize.
# Hand-written; keep in sync with `notif-summarize --help` (checked by CI).

complete -c notif-summarize -l all-pushes -d 'Summarize groups the device lists nothing of too'
complete -c notif-summarize -l categories -r -F -d 'Category registry with the summary formats'
complete -c notif-summarize -l strings -r -F -d '.stringsdict, .strings, .xcstrings, or a folder of <lang>.lproj'
complete -c notif-summarize -l locale -x -a 'ar cy de en es fr it ja ko nl pl pt pt-BR pt-PT ru zh-Hans zh-Hant' -d 'BCP 47 or POSIX locale of the summaries'
complete -c notif-summarize -l profile -x -a 'ios12 ios15' -d 'Which iOS rules to follow'
complete -c notif-summarize -l hidden-previews -d 'Write the hidden-previews placeholder as the summary too'
complete -c notif-summarize -l max-args -x -d 'List at most this many summary arguments'
complete -c notif-summarize -l max-record-bytes -x -d 'Longest JSON text accepted (default 64m; suffix k, m or g)'
complete -c notif-summarize -l format -x -a 'text github json sarif' -d 'How to write diagnostics'
complete -c notif-summarize -l quiet -d 'Write no notes, only warnings and errors'
complete -c notif-summarize -l max-errors -x -d 'Write at most this many errors and warnings'
complete -c notif-summarize -l color -x -a 'auto always never' -d 'Color the diagnostics'
complete -c notif-summarize -l progress -d 'Show progress on standard error'
complete -c notif-summarize -l no-progress -d 'Do not show progress'
complete -c notif-summarize -s h -l help -d 'Show help and exit'
complete -c notif-summarize -l version -d 'Show version and exit'
