#!/usr/bin/env bash
# The scaled-out topology on one machine, for the `test:scale` tests and the scale benchmark
# (docs/SCALING.md): a MariaDB primary with a binary log and a GTID replica (each its own mariadbd,
# data directory, port and socket), two app processes reading from the replica, and HAProxy in front.
#
#   scripts/scale-env.sh start      build if needed, start everything, write $SCALE_DIR/env.json
#   scripts/scale-env.sh stop       stop exactly the processes started here, remove $SCALE_DIR
#   scripts/scale-env.sh replica-start   start the replica again (after a test stopped it)
#   scripts/scale-env.sh status
#
# Settings (environment): SCALE_DIR (/tmp/calendar-scale), SCALE_PRIMARY_PORT (3417),
# SCALE_REPLICA_PORT (3418), SCALE_PROXY_PORT (3480), SCALE_APP_PORTS ("3481 3482"),
# SCALE_REPLICA_DELAY (seconds of MASTER_DELAY, 0), SCALE_REPLICA_MAX_LAG_MS (3000),
# SCALE_REPLICA_WAIT_MS (500), SCALE_REDIS_URL (redis://127.0.0.1:6379; the apps share cached answers
# there under a key prefix of their own, or run without Redis when none answers).
set -euo pipefail
cd "$(dirname "$0")/.."

DIR="${SCALE_DIR:-/tmp/calendar-scale}"
PRIMARY_PORT="${SCALE_PRIMARY_PORT:-3417}"
REPLICA_PORT="${SCALE_REPLICA_PORT:-3418}"
PROXY_PORT="${SCALE_PROXY_PORT:-3480}"
read -r -a APP_PORTS <<<"${SCALE_APP_PORTS:-3481 3482}"
DELAY="${SCALE_REPLICA_DELAY:-0}"
MAX_LAG_MS="${SCALE_REPLICA_MAX_LAG_MS:-3000}"
WAIT_MS="${SCALE_REPLICA_WAIT_MS:-500}"
REDIS="${SCALE_REDIS_URL:-redis://127.0.0.1:6379}"
DB=calendar
APP_USER=calendar
APP_PASSWORD=calendar-scale-pw
ADMIN_LOGIN=admin
ADMIN_PASSWORD=admin-scale-pw

say() { echo "scale-env: $*" >&2; }

# waits up to $1 seconds for the command that follows to succeed
wait_for() {
  local seconds="$1"
  shift
  for _ in $(seq 1 $((seconds * 5))); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  return 1
}

sql() { # sql <primary|replica> <statement>
  mariadb --no-defaults --socket="$DIR/$1.sock" -uroot -N -B -e "$2"
}

start_server() { # start_server <name> <port> <server id> <extra options...>
  local name="$1" port="$2" id="$3"
  shift 3
  if [ ! -d "$DIR/$name/mysql" ]; then
    mkdir -p "$DIR/$name"
    mariadb-install-db --no-defaults --user=root --datadir="$DIR/$name" --auth-root-authentication-method=normal \
      --skip-test-db >"$DIR/$name-install.log" 2>&1
  fi
  mariadbd --no-defaults --user=root --datadir="$DIR/$name" --port="$port" --bind-address=127.0.0.1 \
    --socket="$DIR/$name.sock" --pid-file="$DIR/$name.pid" --log-error="$DIR/$name.err" --server-id="$id" \
    --innodb-buffer-pool-size=64M --innodb-log-file-size=48M --max-connections=200 --gtid-strict-mode=1 \
    --binlog-format=ROW --character-set-server=utf8mb4 \
    --collation-server=utf8mb4_unicode_ci "$@" &
  wait_for 60 sql "$name" 'SELECT 1' || {
    say "$name did not start; see $DIR/$name.err"
    exit 1
  }
}

start_replica() {
  start_server replica "$REPLICA_PORT" 2 --read-only=1 --relay-log="$DIR/replica/relay" --skip-slave-start
  sql replica "STOP SLAVE; CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$PRIMARY_PORT, MASTER_USER='replicator',
    MASTER_PASSWORD='replicator-pw', MASTER_USE_GTID=slave_pos, MASTER_DELAY=$DELAY; START SLAVE"
  local position
  position="$(sql primary 'SELECT @@GLOBAL.gtid_binlog_pos')"
  [ "$(sql replica "SELECT MASTER_GTID_WAIT('$position', $((30 + DELAY)))")" = 0 ] || {
    say "the replica did not catch up; see $DIR/replica.err"
    exit 1
  }
}

app_ready() { curl -fsS "http://127.0.0.1:$1/health/ready"; }

start() {
  mkdir -p "$DIR"
  command -v haproxy >/dev/null || {
    say "installing HAProxy (Debian package)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
  }
  node scripts/ensure-built.mjs

  say "primary mariadbd on 127.0.0.1:$PRIMARY_PORT"
  start_server primary "$PRIMARY_PORT" 1 --log-bin="$DIR/primary/binlog" --log-basename=primary
  sql primary "CREATE DATABASE IF NOT EXISTS $DB CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
    CREATE USER IF NOT EXISTS '$APP_USER'@'127.0.0.1' IDENTIFIED BY '$APP_PASSWORD';
    GRANT ALL PRIVILEGES ON $DB.* TO '$APP_USER'@'127.0.0.1';
    CREATE USER IF NOT EXISTS 'replicator'@'127.0.0.1' IDENTIFIED BY 'replicator-pw';
    GRANT REPLICATION SLAVE ON *.* TO 'replicator'@'127.0.0.1'"

  say "replica mariadbd on 127.0.0.1:$REPLICA_PORT (MASTER_DELAY=$DELAY)"
  start_replica

  local primary_url="mysql://$APP_USER:$APP_PASSWORD@127.0.0.1:$PRIMARY_PORT/$DB"
  local replica_url="mysql://$APP_USER:$APP_PASSWORD@127.0.0.1:$REPLICA_PORT/$DB"
  local servers="" redis_url="" prefix="calendar-scale-$$:"
  if redis-cli -u "$REDIS" ping >/dev/null 2>&1; then
    redis_url="$REDIS"
    echo "$prefix" >"$DIR/redis-prefix"
  else
    say "no Redis answers at $REDIS: the apps run without it"
  fi
  for index in "${!APP_PORTS[@]}"; do
    local port="${APP_PORTS[$index]}"
    say "app $((index + 1)) on 127.0.0.1:$port"
    # one after the other: the first applies the migrations
    PORT="$port" PUBLIC_URL="http://127.0.0.1:$PROXY_PORT" DATABASE_URL="$primary_url" DATABASE_REPLICA_URLS="$replica_url" \
      REPLICA_MAX_LAG_MS="$MAX_LAG_MS" REPLICA_WAIT_MS="$WAIT_MS" ADMIN_LOGIN="$ADMIN_LOGIN" ADMIN_PASSWORD="$ADMIN_PASSWORD" \
      REDIS_URL="$redis_url" REDIS_KEY_PREFIX="$prefix" TRUST_PROXY=1 LOG_FORMAT=json LOG_LEVEL=warn LOG_REQUESTS=false LOGIN_FAILURE_LIMIT=100000 \
      node --max-old-space-size=192 --max-semi-space-size=16 --no-allocation-site-pretenuring dist/src/main.js >"$DIR/app-$((index + 1)).log" 2>&1 &
    echo $! >"$DIR/app-$((index + 1)).pid"
    wait_for 60 app_ready "$port" || {
      say "app $((index + 1)) did not become ready; see $DIR/app-$((index + 1)).log"
      exit 1
    }
    servers+="  server app$((index + 1)) 127.0.0.1:$port check inter 500 fall 2 rise 1"$'\n'
  done

  say "HAProxy on 127.0.0.1:$PROXY_PORT"
  cat >"$DIR/haproxy.cfg" <<EOF
global
  maxconn 2000
defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  option forwardfor
  retries 2
  option redispatch
frontend calendar
  bind 127.0.0.1:$PROXY_PORT
  default_backend apps
backend apps
  balance roundrobin
  option httpchk GET /health/ready
$servers
EOF
  haproxy -f "$DIR/haproxy.cfg" -db >"$DIR/haproxy.log" 2>&1 &
  echo $! >"$DIR/haproxy.pid"
  wait_for 20 curl -fsS "http://127.0.0.1:$PROXY_PORT/health/ready" || {
    say "HAProxy does not answer; see $DIR/haproxy.log"
    exit 1
  }

  local apps
  apps="$(printf '"http://127.0.0.1:%s",' "${APP_PORTS[@]}")"
  cat >"$DIR/env.json" <<EOF
{
  "proxy": "http://127.0.0.1:$PROXY_PORT",
  "apps": [${apps%,}],
  "admin": { "login": "$ADMIN_LOGIN", "password": "$ADMIN_PASSWORD" },
  "primary": { "socket": "$DIR/primary.sock", "url": "$primary_url" },
  "replica": { "socket": "$DIR/replica.sock", "url": "$replica_url", "pidFile": "$DIR/replica.pid" },
  "redis": "$redis_url",
  "maxLagMs": $MAX_LAG_MS,
  "waitMs": $WAIT_MS,
  "script": "$(pwd)/scripts/scale-env.sh",
  "scriptEnv": { "SCALE_DIR": "$DIR", "SCALE_PRIMARY_PORT": "$PRIMARY_PORT", "SCALE_REPLICA_PORT": "$REPLICA_PORT", "SCALE_REPLICA_DELAY": "$DELAY" }
}
EOF
  say "ready: $DIR/env.json"
}

stop_pid_file() { # stops the process whose id the file holds, if it is still running
  local file="$1"
  [ -f "$file" ] || return 0
  local pid
  pid="$(cat "$file")"
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
}

stop() {
  [ -d "$DIR" ] || return 0
  stop_pid_file "$DIR/haproxy.pid"
  for file in "$DIR"/app-*.pid; do stop_pid_file "$file"; done
  stop_pid_file "$DIR/replica.pid"
  stop_pid_file "$DIR/primary.pid"
  if [ -f "$DIR/redis-prefix" ]; then
    redis-cli -u "$REDIS" --scan --pattern "$(cat "$DIR/redis-prefix")*" | xargs -r redis-cli -u "$REDIS" del >/dev/null 2>&1 || true
  fi
  rm -rf "$DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  replica-start) start_replica ;;
  status) cat "$DIR/env.json" ;;
  *)
    echo "usage: $0 start|stop|replica-start|status" >&2
    exit 2
    ;;
esac
