#!/usr/bin/env bash
# Two builds of the server side by side on one calendar, loaded in turn with the same writes
# (bench/writes.mjs): each is warmed up for 30 s (a fresh server's write path needs about 20 s of
# load to run at its steady rate), then they take turns for <rounds> runs of <seconds> each, in an
# order that flips every round, so that the calendar's growth, the machine's drift and which run
# goes first touch both alike (an even number of rounds balances them). Prints every run
# and each build's mean. A build is a checkout with `dist/` built (e.g. a `git worktree` of the
# commit before a change, with `node_modules` linked), or the word `handler`: the hand-written
# yardstick (bench/baseline.mjs), for the service's ratio to it measured in turns.
#
#   DATABASE_URL=mysql://root@127.0.0.1:3306/bench_speed bench/alternate.sh /tmp/before . update [rounds=6] [seconds=6]
#   DATABASE_URL=mysql://root@127.0.0.1:3306/bench_speed bench/alternate.sh handler . trash
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 <build A> <build B> <update|trash|create> [rounds] [seconds]" >&2; exit 2; }
build() { if [ "$1" = handler ]; then echo handler; else (cd "$1" && pwd); fi; }
a=$(build "$1"); b=$(build "$2"); kind=$3; rounds=${4:-6}; seconds=${5:-6}
: "${DATABASE_URL:?DATABASE_URL names the calendar (MariaDB)}"
here=$(cd "$(dirname "$0")/.." && pwd)
pids=()
stop() { for pid in "${pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done; }
trap stop EXIT
start() { # <build> <port>: the server as `npm run start:prod` runs it, without per-request work the bench leaves out
  if [ "$1" = handler ]; then
    (PORT=$2 exec node "$here/bench/baseline.mjs" > /dev/null 2>&1) &
  else
    (cd "$1" && PORT=$2 LOG_LEVEL=warn LOG_REQUESTS=false RATE_LIMIT_PER_MINUTE=0 exec node --max-old-space-size=192 dist/src/main.js > /dev/null 2>&1) &
  fi
  pids+=($!)
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$2/health/ready" > /dev/null && return; sleep 0.2; done
  echo "the server of $1 did not start" >&2; exit 1
}
start "$a" 3971; start "$b" 3972
writes() { node "$here/bench/writes.mjs" "http://127.0.0.1:$1" "$kind" "$2" "$3"; }
writes 3971 30 "${pids[0]}" > /dev/null; writes 3972 30 "${pids[1]}" > /dev/null
out=$(mktemp)
# the order flips every round (A B, B A, A B...): with a fixed order, a rate that still drifts
# (up while a path warms, down as the calendar grows) would favour one side
for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then
    echo "A $(writes 3971 "$seconds" "${pids[0]}")"
    echo "B $(writes 3972 "$seconds" "${pids[1]}")"
  else
    echo "B $(writes 3972 "$seconds" "${pids[1]}")"
    echo "A $(writes 3971 "$seconds" "${pids[0]}")"
  fi
done | tee "$out"
awk -v a="$a" -v b="$b" '{ n[$1]++; s[$1] += $3 } END { printf "A (%s): mean %.0f req/s over %d runs\nB (%s): mean %.0f req/s over %d runs\nB / A: %.2f\n", a, s["A"]/n["A"], n["A"], b, s["B"]/n["B"], n["B"], (s["B"]/n["B"]) / (s["A"]/n["A"]) }' "$out"
rm -f "$out"
