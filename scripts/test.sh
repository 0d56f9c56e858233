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

# One S3 server (moto's, installed into the venv by setup) for every scaled-out stack of the run:
# the PostgreSQL half of the end-to-end suite runs on it with two core replicas (each stack makes
# a bucket of its own). A server already on the port is reused.
s3_port="${QUIRE_TEST_S3_PORT:-9329}"
if ! (exec 3<>"/dev/tcp/127.0.0.1/$s3_port") 2>/dev/null; then
  echo "test: starting moto's S3 server on port $s3_port"
  .cache/venv/bin/python -m moto.server -H 127.0.0.1 -p "$s3_port" >.cache/moto.log 2>&1 &
  moto_pid=$!
  trap 'kill "$moto_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 150); do
    (exec 3<>"/dev/tcp/127.0.0.1/$s3_port") 2>/dev/null && break
    sleep 0.2
  done
fi
export QUIRE_TEST_S3_ENDPOINT="http://127.0.0.1:$s3_port"

echo "test: buf lint"
.cache/venv/bin/buf lint

echo "test: cargo fmt --check"
cargo fmt --all -- --check

# One compile for the lints and the tests. `cargo clippy` is cargo with clippy-driver as the
# workspace's rustc wrapper and the lint flags in CLIPPY_ARGS; clippy-driver also generates code
# when cargo asks for a build. A separate `cargo clippy` checked every dependency a second time
# (6 to 10 minutes of a cold CI run). Dependencies are built by plain rustc either way.
clippy_driver="$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver)"
export RUSTC_WORKSPACE_WRAPPER="$clippy_driver"
# `cargo clippy -- -D warnings`, in clippy's own encoding of its arguments.
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"

# A fresh clone builds everything once: incremental data (2.5 GB in a cold run) is only written.
if [[ "${CI:-}" == "true" ]]; then
  export CARGO_INCREMENTAL=0
fi

echo "test: cargo clippy (-D warnings) and the test build"
cargo test --workspace --all-targets --locked --no-run

echo "test: cargo test"
export QUIRE_TEST_PYTHON="$root/.cache/venv/bin/python"
if cargo nextest --version >/dev/null 2>&1; then
  # Every test of every binary in one pool (.config/nextest.toml): cargo test runs the binaries
  # one after another, leaving a core idle behind each binary's longest test.
  cargo nextest run --workspace --locked
  # nextest does not run doctests.
  cargo test --workspace --locked --doc
else
  cargo test --workspace --locked
fi
