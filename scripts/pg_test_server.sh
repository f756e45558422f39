#!/usr/bin/env bash
# A throw-away PostgreSQL server on loopback for the store tests (scripts/test.sh uses it).
#
#   scripts/pg_test_server.sh start   # prints postgresql://postgres@127.0.0.1:<port>/postgres
#   scripts/pg_test_server.sh stop
#
# Debian's `postgresql` package is installed when missing (as root, or through sudo). The server is
# a private cluster: initdb into a temporary folder, trust authentication, listening on 127.0.0.1
# only on a free port, its socket in the same folder. Nothing of the system's own cluster is used
# or changed. When run as root, the cluster belongs to the `postgres` user (PostgreSQL refuses to
# run as root). Idempotent: `start` reuses a cluster that is already running; `stop` of nothing
# does nothing.
set -euo pipefail

cmd=${1:-start}
dir=${WGB_PG_DIR:-${TMPDIR:-/tmp}/webgpu-bench-pgtest-$(id -u)}
log() { printf '[pg_test_server] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    log "need root to install Debian packages: $*"; return 1; fi
}

bindir() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
  [ -n "$d" ] && [ -x "$d/initdb" ] && printf '%s\n' "$d"
}

# Runs a PostgreSQL program as the cluster's owner.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

url() { printf 'postgresql://postgres@127.0.0.1:%s/postgres\n' "$(cat "$dir/port")"; }

running() {
  local bin=$1
  [ -f "$dir/data/PG_VERSION" ] && [ -f "$dir/port" ] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1
}

case "$cmd" in
  start)
    bin=$(bindir || true)
    if [ -z "$bin" ]; then
      log "installing Debian's postgresql package"
      as_root apt-get update -q >&2
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql >&2
      bin=$(bindir || true)
      [ -n "$bin" ] || { log "no initdb after installing postgresql"; exit 1; }
    fi
    if running "$bin"; then
      url
      exit 0
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
    as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 ||
      { log "initdb failed:"; cat "$dir/initdb.log" >&2; exit 1; }
    # A few tries: another program may take the free port between choosing and binding it.
    for _ in 1 2 3 4 5; do
      port=$(free_port)
      if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
           -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200" start >/dev/null 2>&1; then
        printf '%s\n' "$port" >"$dir/port"
        log "PostgreSQL $(basename "$(dirname "$bin")") on 127.0.0.1:$port, data in $dir"
        url
        exit 0
      fi
    done
    log "PostgreSQL did not start; its log:"
    tail -n 20 "$dir/server.log" >&2 || true
    exit 1
    ;;
  stop)
    bin=$(bindir || true)
    if [ -n "$bin" ] && [ -f "$dir/data/PG_VERSION" ]; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
