#!/usr/bin/env bash
# Starts a clamd for Quire on 127.0.0.1:${CLAMD_PORT:-3310}, with size limits raised to
# the maximum upload size so that no file is ever only partly scanned.
#
# Signatures: the official database in /var/lib/clamav when freshclam has fetched one;
# otherwise (and always with --test-signatures) a tiny test database that detects only the
# EICAR test file, whole (.hdb) or inside a larger file (.ndb). A clamd with only test
# signatures protects against nothing, and this script says so loudly.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
state="${CLAMD_STATE:-$root/.cache/clamd}"
port="${CLAMD_PORT:-3310}"
max_size="${QUIRE_MAX_UPLOAD_SIZE:-536870912}"
use_test=0
[ "${1:-}" = "--test-signatures" ] && use_test=1

mkdir -p "$state/test-db"
conf="$state/clamd-$port.conf"

ping_clamd() {
  { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 1
  printf 'zPING\0' >&3
  local reply=""
  IFS= read -r -d '' -t 5 reply <&3 || true
  exec 3>&-
  [ "$reply" = "PONG" ]
}

if ping_clamd; then
  echo "clamd already answers on 127.0.0.1:$port"
  exit 0
fi

if [ "$use_test" = 0 ] && ls /var/lib/clamav/main.c[lv]d >/dev/null 2>&1; then
  db_dir=/var/lib/clamav
  echo "clamd: using the official signature database in $db_dir"
else
  db_dir="$state/test-db"
  # The EICAR test string, built here so that no file in the repository trips a scanner.
  eicar='X5O!P%@AP[4\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*'
  printf '%s' "$eicar" > "$state/Quire.Test.EICAR"
  (cd "$state" && sigtool --md5 Quire.Test.EICAR) > "$db_dir/quire-test.hdb"
  printf 'Quire.Test.EICAR-Body:0:*:%s\n' "$(printf '%s' "$eicar" | od -An -tx1 -v | tr -d ' \n')" > "$db_dir/quire-test.ndb"
  rm -f "$state/Quire.Test.EICAR"
  cat >&2 <<WARN
################################################################################
# WARNING: clamd runs with TEST SIGNATURES ONLY (EICAR). It detects no real
# malware. For production, run freshclam to fetch the official database.
################################################################################
WARN
fi

cat > "$conf" <<CONF
Foreground no
TCPSocket $port
TCPAddr 127.0.0.1
DatabaseDirectory $db_dir
PidFile $state/clamd-$port.pid
LogFile $state/clamd-$port.log
LogTime yes
MaxThreads 8
# Bursts of uploads queue instead of being refused.
MaxQueue 300
MaxConnectionQueueLength 300
# Every byte of an accepted upload must be scanned: raise all three limits to the upload cap.
StreamMaxLength $max_size
MaxFileSize $max_size
MaxScanSize $max_size
CONF

clamd -c "$conf"
for _ in $(seq 1 120); do
  if ping_clamd; then
    echo "clamd ready on 127.0.0.1:$port (signatures: $db_dir)"
    exit 0
  fi
  sleep 0.5
done
echo "clamd did not answer on 127.0.0.1:$port within 60 s; see $state/clamd-$port.log" >&2
exit 1
