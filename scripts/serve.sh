#!/usr/bin/env bash
# Sets up, builds and runs Quire on the embedded defaults (SQLite and blobs in ./data, HTTP on
# 127.0.0.1:8080, gRPC on 127.0.0.1:50051), with a clamd on 127.0.0.1:3310. Without an official
# ClamAV database (freshclam), clamd runs with test signatures only, and says so loudly.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/setup.sh
scripts/clamd.sh
cargo build --release --locked --bin quire
exec target/release/quire serve "$@"
