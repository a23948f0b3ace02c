#!/bin/bash
# Sends N concurrent searches with a different word each (no cache can answer them) to a running
# server, prints their statuses and times, then polls MariaDB's process list for search statements
# still running after the last answer: the work a failed request leaves behind in the database.
# Against a large calendar with the cache off (e.g. 1M events, `RESPONSE_CACHE=off`):
#   bench/abandoned-queries.sh http://127.0.0.1:3900 20
# The `mysql` client must reach the server's database (MYSQL_ARGS, default `-uroot -h127.0.0.1`).
set -u
BASE=${1:?base URL of the server}
N=${2:-20}
MYSQL_ARGS=${MYSQL_ARGS:--uroot -h127.0.0.1}
running() {
  # shellcheck disable=SC2086
  mysql $MYSQL_ARGS -N -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST
    WHERE COMMAND = 'Query' AND INFO LIKE '%LIKE%' AND ID <> CONNECTION_ID()"
}
now() { date +%s.%N; }
if [ "$(running)" != 0 ]; then echo "search statements are running already; wait until they end"; exit 1; fi
started=$(now)
for i in $(seq 1 "$N"); do
  curl -s -o /dev/null -w "%{http_code} %{time_total}\n" "$BASE/wp-json/tribe/events/v1/events?search=zq$RANDOM$i" &
done | sort | awk '{ count[$1]++; if ($2 > slowest[$1]) slowest[$1] = $2 }
  END { for (status in count) printf "%d x %s (slowest %.2f s)\n", count[status], status, slowest[status] }'
wait
ended=$(now)
echo "burst over in $(echo "$ended - $started" | bc) s"
while true; do
  left=$(running)
  echo "  +$(printf %.1f "$(echo "$(now) - $ended" | bc)") s after the last answer: $left search statements running in the database"
  [ "$left" = 0 ] && break
  sleep 3
done
