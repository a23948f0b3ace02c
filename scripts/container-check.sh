#!/usr/bin/env bash
# Builds the image from the Dockerfile and runs it as docs/OPERATIONS.md ("In a container") says, then
# checks what an operator relies on, printing each check as it passes:
#   - the image builds (the npm registry's CA handed in as the build secret `npm_ca` when npm has one);
#   - started by docker-compose.yml against MariaDB (the connection in parts, a password with / and #):
#     it migrates the empty database, answers /health/ready and Docker's health check, takes a create
#     and a read through its published port, runs as a non-root user that cannot write its own code;
#   - its command-line tool works inside it (`docker compose exec app npm run cli -- …`, and
#     `node dist/src/cli/main.js …`), and so does the migration command of deploy/compose.yaml;
#   - `docker compose stop` (SIGTERM) stops it within the compose file's stop_grace_period, exit 0;
#   - with no database given it keeps its SQLite file on the /app/data volume: a second container
#     on the same volume reads what the first one wrote.
# Nothing is faked: every check talks to the running container. Any failure exits 1 with the
# container's log.
#
# Needs: a Docker engine (started here from Debian's docker.io when none runs: `dockerd`, stopped
# again at the end), a BuildKit-capable client (`docker buildx`, or a client older than 23 with
# DOCKER_BUILDKIT=1: Debian's /usr/bin/docker), compose (`docker compose`, else Debian's
# `docker-compose`), and MariaDB's server binaries (a server of its own is started here, listening
# on the Docker bridge's address only). Base images: scripts/container-base-images.sh.
#
# Settings (environment): NPM_CA_FILE (default: NODE_EXTRA_CA_CERTS, else npm's `cafile`), CHECK_APP_PORT,
# CHECK_SQLITE_PORT, CHECK_DB_PORT (default: free ports), CHECK_IMAGE (event-calendar-api:check-<pid>),
# CHECK_NO_CACHE=1 (build without the layer cache), CHECK_KEEP_IMAGE=1 (keep the built image).
set -euo pipefail
cd "$(dirname "$0")/.."

# One check at a time on a machine (CI runs of other clones included): they share the engine this
# script may start and stop, and the base images it may make.
exec 9>"${TMPDIR:-/tmp}/calendar-container-check.lock"
if ! flock -n 9; then
  echo "container check: waiting for another container check on this machine to finish"
  flock 9
fi

# a port nothing listens on now (the system picks it)
free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
APP_PORT="${CHECK_APP_PORT:-$(free_port)}"
SQLITE_PORT="${CHECK_SQLITE_PORT:-$(free_port)}"
DB_PORT="${CHECK_DB_PORT:-$(free_port)}"
IMAGE="${CHECK_IMAGE:-event-calendar-api:check-$$}"
PROJECT="calendar-check-$$"
ADMIN_PASSWORD="check-admin-$$-pw"
# a generated password with the characters that break a URL; the compose file passes it in parts
DB_PASSWORD="c/h#e@c:k%$$"
API="/wp-json/tribe/events/v1"
WORK="$(mktemp -d)"
STARTED=$SECONDS
DOCKERD_PID=""
DB_PID=""

say() { echo "container check: $*"; }
ok() { echo "  ok: $*"; }
fail() {
  echo "  FAILED: $*"
  show_logs
  exit 1
}
show_logs() {
  local cid
  for cid in $(docker ps -aq --filter "label=com.docker.compose.project=$PROJECT") $(docker ps -aq --filter "name=$PROJECT-"); do
    echo "---- log of container $(docker inspect -f '{{.Name}}' "$cid" 2>/dev/null) (last 40 lines)"
    docker logs --tail 40 "$cid" 2>&1 || true
  done
}

cleanup() {
  local status=$?
  set +e
  if [ -n "${COMPOSE_CMD:-}" ]; then "${COMPOSE[@]}" down -v --remove-orphans >/dev/null 2>&1; fi
  docker rm -f "$PROJECT-sqlite-1" "$PROJECT-sqlite-2" >/dev/null 2>&1
  docker volume rm "$PROJECT-data" >/dev/null 2>&1
  [ "${CHECK_KEEP_IMAGE:-0}" = 1 ] || docker image rm "$IMAGE" >/dev/null 2>&1
  if [ -n "$DB_PID" ]; then
    kill "$DB_PID" 2>/dev/null && wait "$DB_PID" 2>/dev/null
  fi
  if [ -n "$DOCKERD_PID" ]; then
    say "stopping the Docker engine started here"
    kill "$DOCKERD_PID" 2>/dev/null
    for _ in $(seq 1 30); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 1; done
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
# a command that fails outside a check's own test still says where
trap 'echo "  FAILED at line $LINENO: $BASH_COMMAND"; show_logs' ERR

# waits up to $1 seconds for the command that follows to succeed
wait_for() {
  local seconds="$1"
  shift
  for _ in $(seq 1 $((seconds * 4))); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.25
  done
  return 1
}

# http <expected status> <curl arguments...>: the body on stdout, fails on another status
http() {
  local want="$1" status
  shift
  status="$(curl -sS -o "$WORK/body" -w '%{http_code}' "$@")" || fail "curl $* did not get an answer"
  [ "$status" = "$want" ] || fail "curl $* answered $status, not $want: $(head -c 300 "$WORK/body")"
  cat "$WORK/body"
}
# log_has <container> <text>: the container's log holds the text (read whole first: no SIGPIPE under pipefail)
log_has() {
  docker logs "$1" >"$WORK/container.log" 2>&1
  grep -qF -- "$2" "$WORK/container.log"
}
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s);console.log(eval(process.argv[1]))})' "$1"; }

# ---------------------------------------------------------------------------------------------------
say "tools"
if ! docker info >/dev/null 2>&1; then
  if ! command -v dockerd >/dev/null; then
    say "installing Debian's docker.io"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
  fi
  dockerd >"$WORK/dockerd.log" 2>&1 9>&- &
  DOCKERD_PID=$!
  wait_for 60 docker info || {
    tail -n 30 "$WORK/dockerd.log"
    fail "the Docker engine did not start"
  }
  ok "Docker engine started here (dockerd $(docker version -f '{{.Server.Version}}'))"
else
  ok "Docker engine running (dockerd $(docker version -f '{{.Server.Version}}'))"
fi

# A client that builds with BuildKit (needed for the build secret): buildx, or a pre-23 client.
BUILD=()
if docker buildx version >/dev/null 2>&1; then
  BUILD=(docker buildx build --load)
else
  for cli in docker /usr/bin/docker; do
    version="$("$cli" version -f '{{.Client.Version}}' 2>/dev/null)" || continue
    if [ "${version%%.*}" -lt 23 ] 2>/dev/null; then
      BUILD=(env DOCKER_BUILDKIT=1 "$cli" build)
      break
    fi
  done
fi
[ ${#BUILD[@]} -gt 0 ] || fail "no client builds with BuildKit: install docker-buildx, or use a docker client older than 23 with DOCKER_BUILDKIT=1"
ok "build command: ${BUILD[*]}"

if docker compose version >/dev/null 2>&1; then
  COMPOSE_CMD=(docker compose)
else
  command -v docker-compose >/dev/null || {
    say "installing Debian's docker-compose"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null
  }
  COMPOSE_CMD=(docker-compose)
fi
ok "compose: ${COMPOSE_CMD[*]} ($("${COMPOSE_CMD[@]}" version --short 2>/dev/null || echo '?'))"

# ---------------------------------------------------------------------------------------------------
say "base images"
DOCKER_BUILD="${BUILD[*]}" bash scripts/container-base-images.sh | sed 's/^/  /'

say "building $IMAGE from the Dockerfile"
# the CA this machine's npm trusts: NPM_CA_FILE, else Node's extra CA file, else npm's `cafile`
CA="${NPM_CA_FILE:-${NODE_EXTRA_CA_CERTS:-$(npm config get cafile 2>/dev/null || true)}}"
SECRET=()
if [ -n "$CA" ] && [ "$CA" != null ] && [ "$CA" != undefined ] && [ -s "$CA" ]; then
  SECRET=(--secret "id=npm_ca,src=$CA")
  ok "npm CA handed to the build as the secret npm_ca: $CA"
else
  ok "no npm CA file: built without the secret"
fi
NO_CACHE=()
[ "${CHECK_NO_CACHE:-0}" = 1 ] && NO_CACHE=(--no-cache)
build_started=$SECONDS
COMMIT="$(git rev-parse HEAD 2>/dev/null || true)"
if ! "${BUILD[@]}" --progress=plain "${NO_CACHE[@]}" "${SECRET[@]}" --build-arg "APP_COMMIT=$COMMIT" -t "$IMAGE" . >"$WORK/build.log" 2>&1; then
  grep -v '^#[0-9]* sha256:' "$WORK/build.log" | tail -n 150
  fail "docker build failed"
fi
BUILD_SECONDS=$((SECONDS - build_started))
[ "$(docker image inspect -f '{{.Config.User}}' "$IMAGE")" = node ] || fail "the image does not run as the user node"
[[ "$(docker image inspect -f '{{json .Config.Volumes}}' "$IMAGE")" == *'"/app/data"'* ]] || fail "/app/data is no volume of the image"
ok "built in ${BUILD_SECONDS} s ($(grep -c ' CACHED$' "$WORK/build.log" || true) steps from the layer cache), $(($(docker image inspect -f '{{.Size}}' "$IMAGE") / 1000000)) MB, user node, volume /app/data"
if [ ${#SECRET[@]} -gt 0 ] && docker run --rm --entrypoint sh "$IMAGE" -c 'ls /run/secrets 2>/dev/null | grep -q .'; then
  fail "the build secret is left in the image"
fi

# ---------------------------------------------------------------------------------------------------
say "MariaDB for the container (a server of its own on the Docker bridge address)"
# the address `host-gateway` stands for: the default bridge's (docker0) own address on this host
BRIDGE="$(docker network inspect bridge -f '{{index .Options "com.docker.network.bridge.name"}}')"
GATEWAY="$(ip -4 -o addr show dev "${BRIDGE:-docker0}" 2>/dev/null | awk '{split($4, a, "/"); print a[1]; exit}')"
[ -n "$GATEWAY" ] || fail "the Docker bridge has no gateway address"
mariadb-install-db --no-defaults --user=root --datadir="$WORK/db" --auth-root-authentication-method=normal \
  --skip-test-db >"$WORK/db-install.log" 2>&1 || fail "mariadb-install-db failed: $(tail -n 5 "$WORK/db-install.log")"
mariadbd --no-defaults --user=root --datadir="$WORK/db" --port="$DB_PORT" --bind-address="$GATEWAY" \
  --socket="$WORK/db.sock" --pid-file="$WORK/db.pid" --log-error="$WORK/db.err" \
  --innodb-buffer-pool-size=64M --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci 2>>"$WORK/db.err" 9>&- &
DB_PID=$!
sql() { mariadb --no-defaults --socket="$WORK/db.sock" -uroot -N -B -e "$1"; }
wait_for 60 sql 'SELECT 1' || fail "MariaDB did not start: $(tail -n 5 "$WORK/db.err")"
sql "CREATE DATABASE calendar CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
     CREATE USER 'calendar'@'%' IDENTIFIED BY '$DB_PASSWORD';
     GRANT ALL PRIVILEGES ON calendar.* TO 'calendar'@'%'"
ok "MariaDB $(sql 'SELECT VERSION()') on $GATEWAY:$DB_PORT, database calendar, user calendar (password with / # @ : %)"

# ---------------------------------------------------------------------------------------------------
say "docker-compose.yml, service app, against that database"
# The project's compose file as it is; the override names the image just built and points the
# connection at the server above instead of the compose file's own MySQL service (not started:
# --no-deps; no image registry here).
cat >"$WORK/override.yml" <<EOF
services:
  app:
    image: $IMAGE
    extra_hosts: ['host.docker.internal:host-gateway']
    environment:
      DATABASE_HOST: host.docker.internal
      DATABASE_PORT: '$DB_PORT'
EOF
COMPOSE=("${COMPOSE_CMD[@]}" -p "$PROJECT" -f docker-compose.yml -f "$WORK/override.yml")
export DB_PASSWORD ADMIN_PASSWORD DB_ROOT_PASSWORD=unused-here PUBLIC_URL="http://127.0.0.1:$APP_PORT" PORT="$APP_PORT" BIND_ADDRESS=127.0.0.1
up_started=$SECONDS
"${COMPOSE[@]}" up -d --no-deps --no-build app >"$WORK/up.log" 2>&1 || {
  cat "$WORK/up.log"
  fail "compose up failed"
}
CID="$("${COMPOSE[@]}" ps -q app)"
[ -n "$CID" ] || fail "compose started no app container"
BASE="http://127.0.0.1:$APP_PORT"
wait_for 120 curl -sf "$BASE/health/ready" || fail "/health/ready did not answer 200 within 120 s"
ok "/health/ready 200 through the published port 127.0.0.1:$APP_PORT, $((SECONDS - up_started)) s after compose up"
health="$(curl -sf "$BASE/health")"
[ -z "$COMMIT" ] || [[ "$health" == *"\"commit\":\"$COMMIT\""* ]] || fail "GET /health names another commit than $COMMIT: $health"
ok "GET /health names the release: $health"

tables="$(sql "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'calendar'")"
ran="$(sql 'SELECT COUNT(*) FROM calendar.schema_migrations')"
files="$(find src/database/migrations -name '1*.ts' | wc -l)"
[ "$ran" = "$files" ] || fail "$ran migrations recorded in the database, $files in src/database/migrations"
docker logs "$CID" >"$WORK/container.log" 2>&1
applied="$(grep '"context":"Migrations"' "$WORK/container.log" | grep -c '"msg":"Applied ' || true)"
[ "$applied" = "$files" ] || fail "$applied 'Applied …' lines of the Migrations log, $files migrations"
ok "migrated the empty database at start: $applied 'Applied …' log lines, $ran migrations recorded, $tables tables"

wait_for 60 sh -c "[ \"\$(docker inspect -f '{{.State.Health.Status}}' $CID)\" = healthy ]" ||
  fail "Docker's health check says $(docker inspect -f '{{.State.Health.Status}}' "$CID")"
ok "Docker's HEALTHCHECK: healthy"

created="$(http 201 -u "admin:$ADMIN_PASSWORD" -X POST "$BASE$API/categories" -H 'Content-Type: application/json' \
  -d '{"name":"Container check","description":"Written through the published port."}')"
CATEGORY_ID="$(echo "$created" | json v.id)"
read_back="$(http 200 "$BASE$API/categories/$CATEGORY_ID")"
[ "$(echo "$read_back" | json v.name)" = "Container check" ] || fail "the category read back is not the one written: $read_back"
[ "$(sql "SELECT name FROM calendar.categories WHERE id = $CATEGORY_ID")" = "Container check" ] ||
  fail "the category is not in the MariaDB database"
ok "POST $API/categories 201 (id $CATEGORY_ID), GET it back 200, the row is in MariaDB"

uid="$("${COMPOSE[@]}" exec -T app id -u)"
[ "$uid" != 0 ] || fail "exec runs as root"
host_pid="$(docker inspect -f '{{.State.Pid}}' "$CID")"
process_uid="$(awk '/^Uid:/ {print $2}' "/proc/$host_pid/status")"
[ "$process_uid" != 0 ] || fail "the server process runs as root"
if "${COMPOSE[@]}" exec -T app sh -c 'touch /app/dist/x || touch /app/node_modules/x' >/dev/null 2>&1; then
  fail "the server's user can write its own code"
fi
ok "server process uid $process_uid ($("${COMPOSE[@]}" exec -T app id -un)), code read-only for it"

# ---------------------------------------------------------------------------------------------------
say "command-line tool inside the container (docker compose exec app …)"
cli_started=$SECONDS
"${COMPOSE[@]}" exec -T app npm run cli -- user:create --login ci-editor --role editor >"$WORK/cli.log" 2>&1 ||
  fail "npm run cli -- user:create failed: $(tail -n 5 "$WORK/cli.log")"
EDITOR_PASSWORD="$(tail -n 1 "$WORK/cli.log")"
echo "$EDITOR_PASSWORD" | grep -Eq '^[A-Za-z0-9]{24}$' || fail "user:create printed no password last: $(tail -n 3 "$WORK/cli.log")"
ok "npm run cli -- user:create --login ci-editor --role editor: printed the password ($((SECONDS - cli_started)) s)"
"${COMPOSE[@]}" exec -T app node dist/src/cli/main.js user:list >"$WORK/cli.log" 2>&1 || fail "user:list failed: $(tail -n 5 "$WORK/cli.log")"
grep -q $'\tci-editor\teditor\t' "$WORK/cli.log" || fail "user:list does not list ci-editor: $(cat "$WORK/cli.log")"
ok "node dist/src/cli/main.js user:list lists ci-editor"
http 201 -u "ci-editor:$EDITOR_PASSWORD" -X POST "$BASE$API/tags" -d 'name=container' >/dev/null
ok "that password works over HTTP (POST $API/tags 201 as ci-editor)"
"${COMPOSE[@]}" exec -T app npm run cli -- app-password:create --login admin >"$WORK/cli.log" 2>&1 ||
  fail "app-password:create failed: $(tail -n 5 "$WORK/cli.log")"
http 200 -u "admin:$(tail -n 1 "$WORK/cli.log")" "$BASE$API/categories/$CATEGORY_ID?context=edit" >/dev/null
ok "npm run cli -- app-password:create --login admin (the lost-password command): the new password works"
"${COMPOSE[@]}" exec -T app node node_modules/typeorm/cli.js migration:run -d dist/ormconfig.js >"$WORK/migrate.log" 2>&1 ||
  fail "the migrate command of deploy/compose.yaml failed: $(tail -n 5 "$WORK/migrate.log")"
ok "deploy/compose.yaml's migrate command runs in the image: $(grep -v '^$' "$WORK/migrate.log" | tail -n 1)"

# ---------------------------------------------------------------------------------------------------
say "graceful stop (SIGTERM from docker compose stop)"
"${COMPOSE[@]}" config >"$WORK/config.yml"
grace="$(awk '/^  [a-z]/ {app = ($1 == "app:")} app && $1 == "stop_grace_period:" {print $2; exit}' "$WORK/config.yml")"
grace_seconds="$(echo "$grace" | sed -E 's/^([0-9]+)s$/\1/; s/^([0-9]+)m([0-9]+)s$/\1*60+\2/' | bc)"
[ -n "$grace_seconds" ] || fail "no stop_grace_period for app in the compose file"
stop_started="$(date +%s.%N)"
"${COMPOSE[@]}" stop -t "$grace_seconds" app >"$WORK/stop.log" 2>&1 || fail "compose stop failed: $(cat "$WORK/stop.log")"
stop_seconds="$(echo "$(date +%s.%N) - $stop_started" | bc)"
exit_code="$(docker inspect -f '{{.State.ExitCode}}' "$CID")"
[ "$exit_code" = 0 ] || fail "exit code $exit_code after SIGTERM (137: killed at the end of the grace period)"
log_has "$CID" 'SIGTERM received' || fail "no 'SIGTERM received' line in the log"
log_has "$CID" 'Shutdown finished' || fail "no 'Shutdown finished' line in the log"
# from the server's own JSON lines and the engine's record of the exit: SIGTERM received -> shutdown
# finished -> container stopped
read -r shutdown_ms exited_ms <<<"$(node -e '
  const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
  const at = (text) => lines.find((l) => String(l.msg).includes(text)).time;
  console.log(at("Shutdown finished") - at("SIGTERM received"), Date.parse(process.argv[2]) - at("SIGTERM received"));' \
  "$WORK/container.log" "$(docker inspect -f '{{.State.FinishedAt}}' "$CID")")"
[ "$exited_ms" -lt $((grace_seconds * 1000)) ] || fail "the container stopped ${exited_ms} ms after SIGTERM, past the ${grace_seconds} s grace period"
ok "stopped ${exited_ms} ms after SIGTERM (server: ${shutdown_ms} ms to 'Shutdown finished'), exit code 0; stop_grace_period ${grace_seconds} s; \`stop\` itself took $(printf '%.1f' "$stop_seconds") s"

# ---------------------------------------------------------------------------------------------------
say "embedded SQLite on a volume (no database given)"
run_sqlite() { # run_sqlite <name>
  docker run -d --name "$1" -p "127.0.0.1:$SQLITE_PORT:3000" -v "$PROJECT-data:/app/data" \
    -e ADMIN_LOGIN=admin -e ADMIN_PASSWORD="$ADMIN_PASSWORD" -e PUBLIC_URL="http://127.0.0.1:$SQLITE_PORT" \
    -e LOG_FORMAT=json "$IMAGE" >/dev/null
  wait_for 90 curl -sf "http://127.0.0.1:$SQLITE_PORT/health/ready" || fail "$1: /health/ready did not answer 200 within 90 s"
}
run_sqlite "$PROJECT-sqlite-1"
log_has "$PROJECT-sqlite-1" 'data/calendar.sqlite' || fail "the log does not name data/calendar.sqlite"
created="$(http 201 -u "admin:$ADMIN_PASSWORD" -X POST "http://127.0.0.1:$SQLITE_PORT$API/categories" -d 'name=Kept on the volume')"
SQLITE_CATEGORY_ID="$(echo "$created" | json v.id)"
docker stop -t 15 "$PROJECT-sqlite-1" >/dev/null
[ "$(docker inspect -f '{{.State.ExitCode}}' "$PROJECT-sqlite-1")" = 0 ] || fail "the SQLite container did not exit 0 on SIGTERM"
docker rm "$PROJECT-sqlite-1" >/dev/null
files="$(docker run --rm -v "$PROJECT-data:/data" --entrypoint ls "$IMAGE" -ln /data)"
echo "$files" | grep -Eq ' 1000 +1000 .* calendar\.sqlite$' || fail "no calendar.sqlite of uid 1000 on the volume: $files"
ok "first container wrote category $SQLITE_CATEGORY_ID, stopped (exit 0) and was removed; the volume holds calendar.sqlite (uid 1000)"
run_sqlite "$PROJECT-sqlite-2"
[ "$(http 200 "http://127.0.0.1:$SQLITE_PORT$API/categories/$SQLITE_CATEGORY_ID" | json v.name)" = "Kept on the volume" ] ||
  fail "the second container does not read the category"
log_has "$PROJECT-sqlite-2" 'The schema is up to date' || fail "the second container did not find the migrated schema"
log_has "$PROJECT-sqlite-2" 'Created the administrator' && fail "the second container created the administrator again"
ok "a new container on the same volume reads it back (schema up to date, administrator kept)"

say "all checks passed in $((SECONDS - STARTED)) s (image build ${BUILD_SECONDS} s)"
