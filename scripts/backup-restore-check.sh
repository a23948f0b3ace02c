#!/usr/bin/env bash
# Backs up and restores a calendar with the commands of docs/OPERATIONS.md ("Backups and restore"),
# on the embedded SQLite file and on a throw-away MariaDB/MySQL database, and fails when anything
# restored differs from what was backed up. For each engine: an empty database; migrations
# (`npm run migration:run`); 300 seeded events, a user, and a category and an event with non-ASCII
# text written through the running server's API; a fingerprint; the backup, taken while that server
# runs; the server stopped and the database deleted; the restore; the fingerprint again (schema, row
# counts and the data of every table); then the server started on the restored database must answer
# the same event byte for byte, to the restored user's password.
#
# Needs `npm run build` first, curl, and MariaDB/MySQL on 127.0.0.1:3306 with a passwordless root
# (as in .ci/run). It cleans up after itself: temporary files, the database and its user.
set -euo pipefail
cd "$(dirname "$0")/.."

STARTED=$SECONDS
WORK="$(mktemp -d)"
DB="backup_check_$$"
DB_USER="backup_check_$$"
DB_PASSWORD="$(node -e "process.stdout.write(require('crypto').randomBytes(12).toString('hex'))")"
SERVER_PID=""
ROOT_CNF="$WORK/root.cnf"
printf '[client]\nhost=127.0.0.1\nport=3306\nprotocol=tcp\nuser=root\n' >"$ROOT_CNF"

cleanup() {
  if [ -n "$SERVER_PID" ]; then kill -TERM "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  mysql --defaults-extra-file="$ROOT_CNF" -e "DROP DATABASE IF EXISTS \`$DB\`; DROP USER IF EXISTS '$DB_USER'@'%'" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() {
  echo "backup-restore-check: FAILED: $*" >&2
  exit 1
}
step() { echo "-- $*"; }

# Runs a command quietly; on failure shows its output and stops.
quietly() {
  local what="$1"
  shift
  "$@" >"$WORK/step.log" 2>&1 || {
    cat "$WORK/step.log" >&2
    fail "$what"
  }
}

[ -f dist/src/main.js ] || fail "dist/ is missing: run npm run build first"
command -v curl >/dev/null || fail "curl is needed"
PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})")"
API="http://127.0.0.1:$PORT/wp-json/tribe/events/v1"

# The server on the database described by APP_ENV, as a background process; returns once it is ready.
start_server() {
  "${APP_ENV[@]}" PORT="$PORT" PUBLIC_URL="http://127.0.0.1:$PORT" LOG_FORMAT=json LOG_REQUESTS=false \
    node dist/src/main.js >"$WORK/server.log" 2>&1 &
  SERVER_PID=$!
  for _ in $(seq 1 150); do
    curl -fsS "http://127.0.0.1:$PORT/health/ready" >/dev/null 2>&1 && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.2
  done
  cat "$WORK/server.log" >&2
  fail "the server did not become ready"
}

# SIGTERM, as systemd and docker send it; a graceful stop exits 0.
stop_server() {
  kill -TERM "$SERVER_PID"
  local status=0
  wait "$SERVER_PID" || status=$?
  SERVER_PID=""
  [ "$status" -eq 0 ] || fail "the server exited with $status on SIGTERM"
}

# An empty database -> migrations, seeded events, a user, API writes; the server is left running.
fill() {
  quietly "npm run migration:run" "${APP_ENV[@]}" npm run migration:run
  quietly "seeding" "${APP_ENV[@]}" node dist/src/cli/seed.js --events 300 --run-id backup-check
  PASS="$("${APP_ENV[@]}" node dist/src/cli/main.js user:create --login backup-check --role editor | tail -n 1)"
  [[ "$PASS" =~ ^[A-Za-z0-9]{24}$ ]] || fail "user:create printed no password"
  start_server
  curl -fsS -u "backup-check:$PASS" -X POST "$API/categories" --data-urlencode 'name=Sauvegarde été' >/dev/null ||
    fail "creating a category"
  EVENT_ID="$(curl -fsS -u "backup-check:$PASS" -X POST "$API/events" -H 'Content-Type: application/json' \
    -d '{"title":"Café 🎉 東京 backup check","start_date":"2031-05-01 10:00","end_date":"2031-05-01 12:00","categories":["Sauvegarde été"]}' |
    node -e "let s='';process.stdin.on('data',(d)=>s+=d).on('end',()=>process.stdout.write(String(JSON.parse(s).id)))")" ||
    fail "creating an event"
  curl -fsS -u "backup-check:$PASS" "$API/events/$EVENT_ID" >"$WORK/event-before.json" || fail "reading the event back"
}

# After the restore: the server on the restored database answers the same event to the same password.
check_served() {
  start_server
  curl -fsS -u "backup-check:$PASS" "$API/events/$EVENT_ID" >"$WORK/event-after.json" ||
    fail "$1: the restored server did not serve event $EVENT_ID to the restored user"
  cmp -s "$WORK/event-before.json" "$WORK/event-after.json" || fail "$1: event $EVENT_ID reads differently after the restore"
  grep -q "Café 🎉 東京" "$WORK/event-after.json" || fail "$1: the non-ASCII title did not survive"
  stop_server
}

# Compares two fingerprints; a difference names the tables that differ.
compare() {
  if ! diff -u "$2" "$3" >"$WORK/fingerprint.diff"; then
    head -n 40 "$WORK/fingerprint.diff" >&2
    fail "$1: the restored database differs from the original (lines above: - before, + after)"
  fi
}

# ---------------------------------------------------------------------------------------------- SQLite
echo "== SQLite"
SQLITE_PATH="$WORK/data/calendar.sqlite"
BACKUP="$WORK/backups/calendar-$(date +%Y%m%d-%H%M%S).sqlite"
mkdir -p "$WORK/data" "$WORK/backups"
APP_ENV=(env -u DATABASE_URL "SQLITE_PATH=$SQLITE_PATH")
step "empty database, migrations, data"
fill
node scripts/sqlite-fingerprint.mjs "$SQLITE_PATH" >"$WORK/sqlite-before.txt"
grep -Eq '^table events rows 30[0-9] ' "$WORK/sqlite-before.txt" || fail "SQLite: expected 301 events before the backup"

step "backup while the server runs (docs/OPERATIONS.md)"
# --- the guide's commands: backup
node scripts/sqlite-backup.mjs "$SQLITE_PATH" "$BACKUP"
# ---
if command -v sqlite3 >/dev/null; then
  sqlite3 "$SQLITE_PATH" ".backup '$WORK/backups/shell.sqlite'"
fi

step "stop, delete, restore"
stop_server
rm -f "$SQLITE_PATH" "$SQLITE_PATH-wal" "$SQLITE_PATH-shm"
[ ! -e "$SQLITE_PATH" ] || fail "SQLite: the database file is still there"
# --- the guide's commands: restore (the service stopped)
rm -f "$SQLITE_PATH-wal" "$SQLITE_PATH-shm"
cp "$BACKUP" "$SQLITE_PATH"
# ---
node scripts/sqlite-fingerprint.mjs "$SQLITE_PATH" >"$WORK/sqlite-after.txt"
compare "SQLite" "$WORK/sqlite-before.txt" "$WORK/sqlite-after.txt"
if [ -f "$WORK/backups/shell.sqlite" ]; then
  node scripts/sqlite-fingerprint.mjs "$WORK/backups/shell.sqlite" >"$WORK/sqlite-shell.txt"
  compare "SQLite (sqlite3 .backup)" "$WORK/sqlite-before.txt" "$WORK/sqlite-shell.txt"
  echo "   sqlite3 .backup copy: identical too"
fi
check_served "SQLite"
echo "   $(grep -c '^table ' "$WORK/sqlite-after.txt") tables identical, the restored server answers the same"

# --------------------------------------------------------------------------------------------- MariaDB
echo "== MariaDB/MySQL"
mysql --defaults-extra-file="$ROOT_CNF" -e 'SELECT 1' >/dev/null 2>&1 || fail "no MariaDB/MySQL on 127.0.0.1:3306 as root"
# The service's own user, with rights on its database only: it is enough to back up and restore.
mysql --defaults-extra-file="$ROOT_CNF" -e "
  CREATE DATABASE \`$DB\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
  CREATE USER '$DB_USER'@'%' IDENTIFIED BY '$DB_PASSWORD';
  GRANT ALL PRIVILEGES ON \`$DB\`.* TO '$DB_USER'@'%';"
CNF="$WORK/mysql-backup.cnf"
printf '[client]\nhost=127.0.0.1\nport=3306\nprotocol=tcp\nuser=%s\npassword=%s\n' "$DB_USER" "$DB_PASSWORD" >"$CNF"
chmod 600 "$CNF"
BACKUP="$WORK/backups/calendar-$(date +%Y%m%d-%H%M%S).sql.gz"
APP_ENV=(env "DATABASE_URL=mysql://$DB_USER:$DB_PASSWORD@127.0.0.1:3306/$DB")

# Every table's exact row count, then the whole database as SQL (schema and rows, no dates).
mysql_fingerprint() {
  local table
  for table in $(mysql --defaults-extra-file="$ROOT_CNF" -N -e "SHOW TABLES" "$DB"); do
    echo "table $table rows $(mysql --defaults-extra-file="$ROOT_CNF" -N -e "SELECT COUNT(*) FROM \`$table\`" "$DB")"
  done
  mysqldump --defaults-extra-file="$ROOT_CNF" --skip-comments --routines --hex-blob --default-character-set=utf8mb4 "$DB"
}

step "empty database, migrations, data"
fill
mysql_fingerprint >"$WORK/mysql-before.txt"
grep -Eq '^table events rows 30[0-9]$' "$WORK/mysql-before.txt" || fail "MariaDB: expected 301 events before the backup"

step "backup while the server runs (docs/OPERATIONS.md)"
# --- the guide's commands: backup
set -o pipefail
mysqldump --defaults-extra-file="$CNF" --single-transaction --routines --no-tablespaces \
  --hex-blob --default-character-set=utf8mb4 "$DB" | gzip >"$BACKUP"
# ---

step "stop, drop, restore"
stop_server
mysql --defaults-extra-file="$ROOT_CNF" -e "DROP DATABASE \`$DB\`"
[ -z "$(mysql --defaults-extra-file="$ROOT_CNF" -N -e "SHOW DATABASES LIKE '$DB'")" ] || fail "MariaDB: the database is still there"
# --- the guide's commands: restore (the service stopped)
mysql --defaults-extra-file="$CNF" -e "DROP DATABASE IF EXISTS \`$DB\`;
  CREATE DATABASE \`$DB\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"
gunzip <"$BACKUP" | mysql --defaults-extra-file="$CNF" --default-character-set=utf8mb4 "$DB"
# ---
mysql_fingerprint >"$WORK/mysql-after.txt"
compare "MariaDB" "$WORK/mysql-before.txt" "$WORK/mysql-after.txt"
check_served "MariaDB"
echo "   $(grep -c '^table ' "$WORK/mysql-after.txt") tables identical (counts and mysqldump), the restored server answers the same"

echo "backup-restore-check: OK in $((SECONDS - STARTED)) s"
