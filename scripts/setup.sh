#!/usr/bin/env bash
# Installs everything Quire needs to build, run and test on a Debian machine, idempotently:
# Debian packages (clamd, protoc), the PDFium library from the pypdfium2 wheel, and the test
# tools (buf, grpcio) in .cache/venv. Safe to run again; it only installs what is missing.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="$root/.cache"
mkdir -p "$cache"

need_apt=0
for cmd in clamd sigtool protoc pkg-config; do
  command -v "$cmd" >/dev/null 2>&1 || need_apt=1
done
[ -f /usr/include/google/protobuf/timestamp.proto ] || need_apt=1
python3 -m venv --help >/dev/null 2>&1 || need_apt=1
if [ "$need_apt" = 1 ]; then
  echo "setup: installing Debian packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends \
    clamav clamav-daemon protobuf-compiler libprotobuf-dev pkg-config python3 python3-venv ca-certificates
fi

# PDFium is not a Debian package: the pypdfium2 wheel on PyPI ships libpdfium.so (build 8149).
pdfium="$cache/pdfium/libpdfium.so"
if [ ! -f "$pdfium" ]; then
  echo "setup: fetching libpdfium.so from the pypdfium2 wheel"
  tmp="$(mktemp -d)"
  python3 -m pip download -q --only-binary :all: --platform manylinux_2_17_x86_64 --no-deps \
    -d "$tmp" pypdfium2==5.15.2
  mkdir -p "$cache/pdfium"
  python3 - "$tmp" "$pdfium" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(f"{sys.argv[1]}/pypdfium2-*.whl")[0]
with zipfile.ZipFile(wheel) as z, open(sys.argv[2], "wb") as out:
    out.write(z.read("pypdfium2_raw/libpdfium.so"))
PY
  rm -rf "$tmp"
fi

if [ ! -x "$cache/venv/bin/buf" ] || ! "$cache/venv/bin/python" -c "import grpc_tools, grpc_status" 2>/dev/null; then
  echo "setup: installing test tools into .cache/venv"
  python3 -m venv "$cache/venv"
  "$cache/venv/bin/pip" install -q -r "$root/scripts/requirements-dev.txt"
fi
echo "setup: done"
