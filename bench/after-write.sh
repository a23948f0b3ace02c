#!/bin/bash
# Times the reads that show term counts right after a write, and a create that links terms, one at a
# time against an already seeded calendar (e.g. after `npm run bench -- --keep true`). Run from the
# repository root after `npm run build`:
#   DATABASE_URL=mysql://root@127.0.0.1:3306/calendar_bench bench/after-write.sh
set -u
export DATABASE_URL=${DATABASE_URL:-mysql://root@127.0.0.1:3306/calendar_bench}
PORT=${PORT:-3970}
LOGIN=${BENCH_LOGIN:-bench-admin:bench-password-1}
PORT=$PORT node --max-old-space-size=192 dist/src/main.js > /tmp/after-write-server.log 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
started=$(date +%s)
until curl -sf "http://127.0.0.1:$PORT/health/ready" > /dev/null; do
  sleep 1
  if (( $(date +%s) - started > 300 )); then echo "the server did not get ready (see /tmp/after-write-server.log)"; exit 1; fi
done
echo "ready after $(( $(date +%s) - started )) s (includes pending migrations)"
API=http://127.0.0.1:$PORT/wp-json/tribe/events/v1
query() { node -e "
  const mysql = require('mysql2/promise');
  mysql.createConnection(process.env.DATABASE_URL).then(async (c) => { const [rows] = await c.query(process.argv[1]); console.log(Object.values(rows[0])[0]); await c.end(); });
" "$1"; }
CATEGORY=$(query 'SELECT id FROM categories ORDER BY id LIMIT 1')
TAG=$(query 'SELECT id FROM tags ORDER BY id LIMIT 1')
EVENT=$(query "SELECT e.id FROM events e JOIN event_categories c ON c.event_id = e.id WHERE e.status = 'publish' ORDER BY e.id LIMIT 1")
write() { curl -s -u "$LOGIN" -o /dev/null -X POST "$API/events" -H 'Content-Type: application/json' -d '{"title":"Write probe","start_date":"2027-05-01 18:00:00","end_date":"2027-05-01 20:00:00"}'; }
for round in 1 2 3; do
  write
  curl -s -o /dev/null -w "round $round  GET /categories after a write: %{time_total} s (%{http_code})\n" "$API/categories"
  write
  curl -s -o /dev/null -w "round $round  GET /events/$EVENT (with categories) after a write: %{time_total} s (%{http_code})\n" "$API/events/$EVENT"
  curl -s -u "$LOGIN" -o /dev/null -w "round $round  POST /events with a category and a tag: %{time_total} s (%{http_code})\n" -X POST "$API/events" \
    -H 'Content-Type: application/json' -d "{\"title\":\"Write probe\",\"start_date\":\"2027-05-01 18:00:00\",\"end_date\":\"2027-05-01 20:00:00\",\"categories\":[$CATEGORY],\"tags\":[$TAG]}"
done
