# shellcheck shell=sh
# rping-loop.sh ADDR PORT : siw's rping -c towards ADDR:PORT, again and again (the conformance-siw-initiator*
# cells: one connection per check)
while true; do
  timeout 30 rping -c -a "$1" -p "$2" -C 1 -S 64 -v
  echo "rping -c exit $? at $(date +%T)"
  sleep 0.2
done
