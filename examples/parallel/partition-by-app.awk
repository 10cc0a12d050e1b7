# Numbers the records of a notif store and splits them by app, for notif-expire on several
# cores: see expire-by-app.sh, which runs it.
#
#   awk -v parts=N -v prefix=DIR/part- -f partition-by-app.awk inbox.ndjson
#
# Writes every record to one of the files DIR/part-0 ... DIR/part-(N-1), every record of an app
# to the same file, in input order, with its line number put first as a member no notif tool
# reads: {"\u0000line":"000000000042", ...}, twelve digits, so that sorting lines by their
# bytes sorts them by number; with -v number=0, as it is (notif-digest copies records into its
# digests, and puts them in order itself). Apps go to the files in turn as they first appear.
#
# The app is the first "app": of the line, which in a record written by notif-parse is the
# record's own (it follows "id", and no string holds a bare quote). A line that does not start
# a record as notif-parse writes it stops the split (exit 2): expire such a store whole.
!/^\{"/ {
  printf "partition-by-app.awk: line %d is not a record as notif-parse writes it\n", NR \
    > "/dev/stderr"
  exit 2
}
{
  app = "null"
  first = index($0, "\"app\":")
  if (first > 0 && match($0, /"app":"([^"\\]|\\.)*"/) && RSTART == first) {
    app = substr($0, RSTART + 6, RLENGTH - 6)
  }
  if (!(app in part)) part[app] = apps++ % parts
  if (number == "0") print > (prefix part[app])
  else printf "{\"\\u0000line\":\"%012d\",%s\n", NR, substr($0, 2) > (prefix part[app])
}
