#!/usr/bin/env bash
# Runs the service's tests against a throwaway PostgreSQL (Debian's `postgresql`, 15 preferred) on
# 127.0.0.1: CI's second pass after the PGlite one.
#
#   bash scripts/ci-postgres.sh                 # npm run test:server with DATABASE_URL set
#   bash scripts/ci-postgres.sh npx tsx x.ts    # any other command, same DATABASE_URL
#
# The server lives in a temporary folder on a free port, runs as a non-root user (postgres, through
# runuser, when this script runs as root), and is stopped and removed on exit, whether tests pass or not.
# WALLET_ELEMENTS_PG_CONTROL names a script that stops and starts it again (`stop`, `start`), for the
# tests of database faults (test/unit/server/database-faults.test.ts).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

PG_VERSION="${PG_VERSION:-15}"
DB_NAME="wallet_elements_test"

find_pg_bin() {
  if [[ -x "/usr/lib/postgresql/${PG_VERSION}/bin/initdb" ]]; then
    echo "/usr/lib/postgresql/${PG_VERSION}/bin"
    return
  fi
  # Any other installed major version, newest first.
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [[ -n "$dir" && -x "$dir/initdb" ]]; then echo "$dir"; fi
}

PG_BIN="$(find_pg_bin)"
if [[ -z "$PG_BIN" ]]; then
  if [[ "$(id -u)" -eq 0 ]]; then
    echo "ci-postgres: PostgreSQL is not installed; installing Debian's postgresql package" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    # The package starts a cluster on port 5432; this script uses its own, so leave that one alone.
    PG_BIN="$(find_pg_bin)"
  fi
  if [[ -z "$PG_BIN" ]]; then
    echo "ci-postgres: PostgreSQL is not installed (apt-get install postgresql, as root)" >&2
    exit 1
  fi
fi

# PostgreSQL refuses to run as root: run it as the postgres user then.
if [[ "$(id -u)" -eq 0 ]]; then
  if ! id -u postgres >/dev/null 2>&1; then
    useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin postgres
  fi
  AS_PG="runuser -u postgres --"
else
  AS_PG=""
fi
as_pg() { $AS_PG "$@"; }

PORT="$(node -e "const s=require('node:net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
WORK="$(mktemp -d -t wallet-elements-pg.XXXXXX)"
DATA="$WORK/data"
if [[ "$(id -u)" -eq 0 ]]; then chown postgres: "$WORK"; fi

started=0
cleanup() {
  local status=$?
  if [[ "$started" -eq 1 ]]; then
    as_pg "$PG_BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null 2>&1 ||
      as_pg "$PG_BIN/pg_ctl" -D "$DATA" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if [[ "$status" -ne 0 && -f "$WORK/postgres.log" ]]; then
    echo "ci-postgres: last lines of the PostgreSQL log:" >&2
    tail -n 20 "$WORK/postgres.log" >&2 || true
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "ci-postgres: $("$PG_BIN/postgres" --version) on 127.0.0.1:$PORT ($WORK)" >&2
as_pg "$PG_BIN/initdb" -D "$DATA" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-sync >/dev/null
# Loopback only, socket in the temp folder, and no durability: the data is thrown away afterwards.
PG_OPTIONS="-c listen_addresses=127.0.0.1 -p $PORT -k $WORK -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
as_pg "$PG_BIN/pg_ctl" -D "$DATA" -l "$WORK/postgres.log" -w -t 60 start -o "$PG_OPTIONS" >/dev/null
started=1

# Stops (fast shutdown: sessions cut, committed data kept) and starts the same server again.
cat >"$WORK/pg-control.sh" <<CONTROL
#!/usr/bin/env bash
set -euo pipefail
case "\${1:-}" in
  stop) $AS_PG "$PG_BIN/pg_ctl" -D "$DATA" -m fast -w -t 60 stop ;;
  start) $AS_PG "$PG_BIN/pg_ctl" -D "$DATA" -l "$WORK/postgres.log" -w -t 60 start -o "$PG_OPTIONS" ;;
  *) echo "usage: \$0 stop|start" >&2; exit 2 ;;
esac
CONTROL
chmod +x "$WORK/pg-control.sh"
export WALLET_ELEMENTS_PG_CONTROL="$WORK/pg-control.sh"
"$PG_BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB_NAME"

export DATABASE_URL="postgresql://postgres@127.0.0.1:$PORT/$DB_NAME"
if [[ $# -eq 0 ]]; then
  set -- npm run test:server
fi
echo "ci-postgres: DATABASE_URL=$DATABASE_URL $*" >&2
"$@"
