#!/usr/bin/env bash
# Sets up and runs every check: proto lint, formatting, unit and end-to-end tests (real clamd,
# SQLite and PostgreSQL, real HTTP and gRPC over sockets, a Python gRPC client).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/setup.sh --tests

# Two clamd instances with the EICAR test signatures: one at the default upload cap, one whose
# limits are 1 MiB, to prove that a size-limit answer is refused rather than taken as clean.
scripts/clamd.sh --test-signatures
CLAMD_PORT=3311 QUIRE_MAX_UPLOAD_SIZE=1048576 scripts/clamd.sh --test-signatures

# PostgreSQL: the machine's server (trust auth); the tests create a fresh database per stack.
if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  echo "test: starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start || true
fi

echo "test: buf lint"
.cache/venv/bin/buf lint

echo "test: cargo fmt --check"
cargo fmt --all -- --check

echo "test: cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "test: cargo test"
export QUIRE_TEST_PYTHON="$root/.cache/venv/bin/python"
cargo test --workspace --locked
