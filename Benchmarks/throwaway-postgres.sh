# Sourced by the benchmarks that measure PostgreSQL: a throwaway cluster in a temporary folder, listening
# only on a Unix socket there (as root it runs as the `postgres` account), durable as a real server is
# (fsync on). Installs Debian's postgresql when it is missing.
#
#   start_throwaway_postgres NAME [-c SETTING=VALUE ...]   sets $pgdata and $database (a URL of an empty
#                                                          database "hmon"), and $pgbin, $runas
#   stop_throwaway_postgres                                stops it and removes its folder (safe to call
#                                                          when none was started: call it from the EXIT trap)
pgdata=""
runas=()

start_throwaway_postgres() {
    local name=$1; shift
    if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
        echo "installing postgresql"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    pgdata=$(mktemp -d "/tmp/hmon-$name-pg-XXXXXX")
    if [ "$(id -u)" = 0 ]; then
        chown postgres: "$pgdata"
        runas=(runuser -u postgres --)
    fi
    "${runas[@]+"${runas[@]}"}" "$pgbin/initdb" -D "$pgdata/data" -U postgres --auth=trust -E UTF8 --locale=C >/dev/null
    "${runas[@]+"${runas[@]}"}" "$pgbin/pg_ctl" -D "$pgdata/data" -l "$pgdata/server.log" -w \
        -o "-k $pgdata -c listen_addresses='' $*" start >/dev/null
    "$pgbin/psql" "postgresql://postgres@localhost/postgres?host=$pgdata" -qc "CREATE DATABASE hmon"
    database="postgres://postgres@localhost/hmon?host=$pgdata"
}

stop_throwaway_postgres() {
    [ -n "$pgdata" ] || return 0
    "${runas[@]+"${runas[@]}"}" "$pgbin/pg_ctl" -D "$pgdata/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$pgdata"
    pgdata=""
}
