#!/bin/sh
# A throw-away PostgreSQL cluster for the "_pg" variants of the memory suites (issue 16):
#   pg_test_server.sh start DIR   initdb + pg_ctl start in DIR (Unix socket in DIR, no TCP port, so
#                                 several checkouts can test at once); writes DIR/url
#   pg_test_server.sh stop DIR    stops the server by its pid file and removes DIR
#   pg_test_server.sh restart DIR a fast restart (sessions cut, data kept), as an operator would do
#   pg_test_server.sh down|up DIR stops / starts the server of DIR, data kept (an outage)
# PostgreSQL refuses to run as root: as root, the cluster belongs to the unprivileged user
# $SAGE_PG_USER (default nobody). Missing binaries fail loudly; set SAGE_SKIP_PG_TESTS=1 to skip
# the PostgreSQL variants on purpose (they then report SKIP, not PASS).
set -eu
action=${1:?usage: pg_test_server.sh start|stop|restart|down|up DIR}
dir=${2:?usage: pg_test_server.sh start|stop DIR}

if [ "${SAGE_SKIP_PG_TESTS:-}" = 1 ]; then
    echo "pg_test_server: SAGE_SKIP_PG_TESTS=1, no server started"
    exit 0
fi

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "pg_test_server: error: PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin/initdb)." >&2
    echo "  Install them with scripts/install-deps.sh (Debian package postgresql), or set SAGE_SKIP_PG_TESTS=1" >&2
    echo "  to skip the PostgreSQL variants of the memory tests on purpose." >&2
    exit 1
fi

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u "${SAGE_PG_USER:-nobody}" -- "$@"; else "$@"; fi
}

# Unix socket only, in DIR; small and fast: a test cluster need not survive a power cut.
server_options() {
    echo "-c listen_addresses='' -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60"
}

case "$action" in
start)
    if [ -f "$dir/data/postmaster.pid" ]; then as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown "${SAGE_PG_USER:-nobody}" "$dir"; fi
    as_owner "$bindir/initdb" -D "$dir/data" -U sage --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "$(server_options)" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bindir/createdb" -h "$dir" -U sage sage
    echo "postgresql:///sage?host=$dir&user=sage" >"$dir/url"
    echo "pg_test_server: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on $(cat "$dir/url")"
    ;;
restart)
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart >/dev/null
    ;;
down)
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null
    ;;
up)
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$(server_options)" start >/dev/null
    ;;
stop)
    if [ -f "$dir/data/postmaster.pid" ]; then as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null; fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: pg_test_server.sh start|stop|restart|down|up DIR" >&2
    exit 2
    ;;
esac
