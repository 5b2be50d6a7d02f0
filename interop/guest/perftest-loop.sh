# shellcheck shell=sh
# perftest-loop.sh TOOL : TOOL -R -s 64 as a server, again and again (the conformance-siw-perftest-* cells:
# one perftest run per check). `timeout --foreground`: a plain timeout puts perftest in a process group of its
# own, which the kill of the loop's session would miss, and a server left behind would answer the next cell.
while true; do
  timeout --foreground 60 "$1" -R -d siw0 -s 64 -n 1000 -F > /tmp/ptrun.log 2>&1
  echo "$1 exit $? at $(date +%T.%N)"
  grep -i 'fail\|error\|couldn\|unable\|status' /tmp/ptrun.log | tail -2 | sed 's/^/  /'
done
