# fish completion for notif-parse.
# Hand-written; keep in sync with `notif-parse --help` (checked by CI).

complete -c notif-parse -s c -l check -d 'Write only diagnostics and a count, to standard output'
complete -c notif-parse -s l -l lint -d 'Also check the wording against Apple guidelines'
complete -c notif-parse -s s -l strict -d 'Treat warnings as errors'
complete -c notif-parse -l app -x -d 'App (bundle ID) for payloads that name none'
complete -c notif-parse -l app-name -x -d 'Name of the app as users see it, for --lint'
complete -c notif-parse -l categories -r -F -d 'Category registry to check categories against'
complete -c notif-parse -l format -x -a 'text github json' -d 'How to write diagnostics'
complete -c notif-parse -s j -l jobs -x -d 'Threads that parse a large file'
complete -c notif-parse -l max-record-bytes -x -d 'Longest JSON text accepted (default 64m; suffix k, m or g)'
complete -c notif-parse -l now -x -d 'Time to record when the input has none (RFC 3339 or @epoch)'
complete -c notif-parse -l platform -x -a 'ios android web' -d 'Override block of FCM and SNS messages'
complete -c notif-parse -l push-type -x -a 'alert background location voip complication fileprovider mdm liveactivity pushtotalk widgets controls' -d 'Push type when the envelope has none'
complete -c notif-parse -l store -r -F -d 'Append the records to an inbox file under its lock'
complete -c notif-parse -s h -l help -d 'Show help and exit'
complete -c notif-parse -l version -d 'Show version and exit'
