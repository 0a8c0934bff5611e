# Sourced by scripts/test.sh when no PostgreSQL is named (PGHOST unset): the SQL function's
# pass needs a server. A cluster of Debian's, initialised in a temporary folder (as the
# postgres user: initdb refuses root), listening on a free loopback port, named to libpq by
# PGHOST/PGPORT/PGUSER/PGDATABASE, and stopped on any exit of the sourcing shell.
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
pg_dir=$(mktemp -d /tmp/rulec-pg.XXXXXX)
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$pg_dir"; fi
stop_pg() {
  as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$pg_dir"
}
trap stop_pg EXIT
as_pg "$pg_bin/initdb" -D "$pg_dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
pg_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg_dir" \
  -l "$pg_dir/log" -w start >/dev/null
export PGHOST=127.0.0.1 PGPORT=$pg_port PGUSER=postgres PGDATABASE=postgres
echo "postgres: a cluster on 127.0.0.1:$pg_port for this run"
