#!/usr/bin/env bash
# Installs what Quire needs to build and run on a Debian machine, idempotently: Debian packages
# (clamd, protoc, Tesseract, qpdf, cmake and nasm for the bundled libjpeg-turbo) and the PDFium
# library from the pypdfium2 wheel. With --tests, also what the tests need: chromium and
# playwright-core (tests/web) for the browser tests, the test tools (buf, grpcio) in .cache/venv
# and the real-world PDF corpus in .cache/pdf-corpus. Safe to run again; it only installs what
# is missing.
set -euo pipefail

tests=0
[ "${1:-}" = "--tests" ] && tests=1

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="$root/.cache"
mkdir -p "$cache"

need_apt=0
for cmd in clamd sigtool protoc pkg-config clang qpdf cmake nasm; do
  command -v "$cmd" >/dev/null 2>&1 || need_apt=1
done
[ -f /usr/include/google/protobuf/timestamp.proto ] || need_apt=1
# Tesseract and Leptonica headers for leptess, libclang for its bindgen, and the trained data
# the OCR endpoint offers by default (fra+eng).
[ -f /usr/include/tesseract/baseapi.h ] || need_apt=1
[ -f /usr/include/leptonica/allheaders.h ] || need_apt=1
ls /usr/lib/x86_64-linux-gnu/libclang*.so* >/dev/null 2>&1 || need_apt=1
for lang in eng fra; do
  ls /usr/share/tesseract-ocr/*/tessdata/$lang.traineddata >/dev/null 2>&1 || need_apt=1
done
python3 -m venv --help >/dev/null 2>&1 || need_apt=1
# The browser tests of the web interface: Debian's chromium driven by playwright-core (npm).
test_packages=""
if [ "$tests" = 1 ]; then
  for cmd in chromium node npm curl; do
    command -v "$cmd" >/dev/null 2>&1 || need_apt=1
  done
  test_packages="chromium curl $(command -v node >/dev/null && command -v npm >/dev/null || echo nodejs npm)"
fi
if [ "$need_apt" = 1 ]; then
  echo "setup: installing Debian packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends \
    clamav clamav-daemon protobuf-compiler libprotobuf-dev pkg-config python3 python3-venv ca-certificates \
    libtesseract-dev libleptonica-dev clang libclang-dev tesseract-ocr-eng tesseract-ocr-fra qpdf \
    cmake nasm \
    $test_packages
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

if [ "$tests" = 0 ]; then
  echo "setup: done"
  exit 0
fi

# Real-world and malformed PDFs for the robustness test: the test resources shipped in the
# source distributions of pypdf and pikepdf (only their PDFs are kept).
corpus="$cache/pdf-corpus"
if [ ! -f "$corpus/.done" ]; then
  echo "setup: fetching the pypdf and pikepdf test PDFs"
  rm -rf "$corpus" && mkdir -p "$corpus"
  python3 - "$corpus" <<'PY'
import hashlib, io, re, sys, tarfile, urllib.parse, urllib.request
out = sys.argv[1]
for name, version in [("pypdf", "7.1.0"), ("pikepdf", "10.17.0")]:
    index = f"https://pypi.org/simple/{name}/"
    page = urllib.request.urlopen(index).read().decode()
    href = re.search(rf'href="([^"]*/{name}-{version}\.tar\.gz)#sha256=([0-9a-f]+)"', page)
    data = urllib.request.urlopen(urllib.parse.urljoin(index, href.group(1))).read()
    assert hashlib.sha256(data).hexdigest() == href.group(2), f"{name} sdist checksum mismatch"
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.lower().endswith(".pdf"):
                flat = member.name.split("/", 1)[1].replace("/", "__").replace(" ", "_")
                with open(f"{out}/{name}__{flat}", "wb") as f:
                    f.write(tar.extractfile(member).read())
PY
  touch "$corpus/.done"
fi

if [ ! -x "$cache/venv/bin/buf" ] || ! "$cache/venv/bin/python" -c "import grpc_tools, grpc_status" 2>/dev/null; then
  echo "setup: installing test tools into .cache/venv"
  python3 -m venv "$cache/venv"
  "$cache/venv/bin/pip" install -q -r "$root/scripts/requirements-dev.txt"
fi
if [ ! -d "$root/tests/web/node_modules/playwright-core" ]; then
  echo "setup: installing playwright-core into tests/web"
  npm ci --prefix "$root/tests/web" --no-audit --no-fund
fi
echo "setup: done"
