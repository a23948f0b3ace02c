#!/usr/bin/env bash
# Backs up the calendar's database into BACKUP_DIR and keeps the newest BACKUP_KEEP backups there
# (docs/OPERATIONS.md, "A backup schedule"). Run it once a day from calendar-backup.timer or the cron
# line beside it, as the service's user and with the service's environment:
#
#   BACKUP_DIR     where the backups go (default /var/backups/calendar; it must exist)
#   BACKUP_KEEP    how many backups to keep, the newest (default 14: two weeks of daily ones)
#   CALENDAR_DIR   the release directory holding scripts/ and node_modules/ (default: two folders up)
#
# The database is the service's: MySQL/MariaDB when DATABASE_URL, DATABASE_URL_FILE or DATABASE_HOST
# is set, dumped with mysqldump, which reads the connection from the option file BACKUP_MYSQL_CNF
# (default /etc/calendar/mysql-backup.cnf) and dumps BACKUP_MYSQL_DATABASE (default DATABASE_NAME, else
# the database named in DATABASE_URL); otherwise the SQLite file SQLITE_PATH (default
# data/calendar.sqlite in CALENDAR_DIR), copied with SQLite's online backup by scripts/sqlite-backup.mjs.
# Both are safe while the server runs. Old backups are removed only after a new one succeeded.
set -euo pipefail
umask 077 # a backup holds password hashes and webhook secrets

BACKUP_DIR="${BACKUP_DIR:-/var/backups/calendar}"
BACKUP_KEEP="${BACKUP_KEEP:-14}"
CALENDAR_DIR="${CALENDAR_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}"
NODE="${NODE:-node}"

fail() {
  echo "calendar-backup: $*" >&2
  exit 1
}
[[ "$BACKUP_KEEP" =~ ^[1-9][0-9]*$ ]] || fail "BACKUP_KEEP must be a whole number of at least 1, not '$BACKUP_KEEP'"
[ -d "$BACKUP_DIR" ] || fail "BACKUP_DIR $BACKUP_DIR is not a directory"
cd "$CALENDAR_DIR"

stamp="$(date -u +%Y%m%d-%H%M%S)"
# written in a folder of its own first, so a failed or unfinished backup never counts as one
work="$(mktemp -d "$BACKUP_DIR/.calendar-backup.XXXXXX")"
trap 'rm -rf "$work"' EXIT
if [ -n "${DATABASE_URL:-}${DATABASE_URL_FILE:-}${DATABASE_HOST:-}" ]; then
  cnf="${BACKUP_MYSQL_CNF:-/etc/calendar/mysql-backup.cnf}"
  database="${BACKUP_MYSQL_DATABASE:-${DATABASE_NAME:-}}"
  if [ -z "$database" ] && [ -n "${DATABASE_URL:-}" ]; then
    database="${DATABASE_URL##*/}"
    database="${database%%\?*}"
  fi
  [ -n "$database" ] || fail "set BACKUP_MYSQL_DATABASE: the database to dump"
  [ -r "$cnf" ] || fail "cannot read the option file $cnf (BACKUP_MYSQL_CNF)"
  name="calendar-$stamp.sql.gz"
  mysqldump --defaults-extra-file="$cnf" --single-transaction --routines --no-tablespaces \
    --hex-blob --default-character-set=utf8mb4 "$database" | gzip >"$work/$name"
else
  name="calendar-$stamp.sqlite"
  "$NODE" scripts/sqlite-backup.mjs "${SQLITE_PATH:-data/calendar.sqlite}" "$work/$name" >/dev/null
  # the copy's check opens it read-only, which may leave an empty -wal beside it: the copy is whole
  [ ! -s "$work/$name-wal" ] || fail "the copy of the SQLite file has a write-ahead log left; not keeping it"
fi
[ ! -e "$BACKUP_DIR/$name" ] || fail "$BACKUP_DIR/$name exists already"
mv "$work/$name" "$BACKUP_DIR/$name"

# Retention: the names sort by their UTC time, so all but the last BACKUP_KEEP names go.
mapfile -t backups < <(find "$BACKUP_DIR" -maxdepth 1 -type f \
  \( -name 'calendar-[0-9]*-[0-9]*.sqlite' -o -name 'calendar-[0-9]*-[0-9]*.sql.gz' \) -printf '%f\n' | sort)
removed=0
for ((i = 0; i < ${#backups[@]} - BACKUP_KEEP; i++)); do
  rm -f -- "$BACKUP_DIR/${backups[i]}"
  removed=$((removed + 1))
done
echo "Backed up to $BACKUP_DIR/$name; $((${#backups[@]} - removed)) backups kept, $removed removed."
