# The English iOS 12 rules of notif-summarize(1), in jq, for bench/summarize.sh: the same job,
# so that the two outputs can be compared byte for byte. Categories come in as $categories.
def list:
  if length == 0 then ""
  elif length == 1 then .[0]
  elif length == 2 then "\(.[0]) and \(.[1])"
  else (.[:-1] | join(", ")) + ", and " + .[-1]
  end;
def fill($format; $count; $arguments):
  $format | gsub("%u"; $count | tostring) | gsub("%@"; $arguments);
def default($count): "\($count) more notification" + (if $count == 1 then "" else "s" end);
def hidden_default($count): "\($count) notification" + (if $count == 1 then "" else "s" end);
def weight: if type == "number" and . > 0 and floor == . then . else 1 end;

[.more_summary_args[].summary_arg | select(. != "")] as $arguments
| .more_weight as $total
| [.more_categories[] | {count: .weight,
    format: (if .category == null then null
             else $categories[.category].category_summary_format end)}] as $parts
| (if .more_count == 0 then null
   elif ($parts | length) == 0 or any($parts[]; .format == null or .format == "")
   then default($total)
   elif ($parts | length) == 1 then
     if ($parts[0].format | contains("%@")) then
       if ($arguments | length) == 0 then default($total)
       else fill($parts[0].format; $total; $arguments | list) end
     else fill($parts[0].format; $total; "") end
   elif any($parts[]; .format | contains("%@")) then default($total)
   else [$parts[] | fill(.format; .count; "")] | list
   end) as $summary
| ($total + (.leading.summary_arg_count | weight)) as $all
| .leading.category as $lead
| (if $lead != null and all(.more_categories[]; .category == $lead)
      and (($categories[$lead].hidden_previews_body_placeholder // "") as $p
           | $p != "" and ($p | contains("%@") | not))
   then fill($categories[$lead].hidden_previews_body_placeholder; $all; "")
   else hidden_default($all) end) as $hidden
| del(.summary, .hidden_summary) + {summary: $summary, hidden_summary: $hidden}
