#!/usr/bin/env bash
# Runs a benchmark with its reference tools installed: `scripts/bench.sh process` (OCR, PDF to
# images and compression against tesseract, pdftoppm, mutool and Ghostscript, compression also
# on the real-world corpora, .cache/compress-corpus and the further PDFs of
# .cache/compress-corpus-more that only this benchmark reads;
# QUIRE_BENCH_ONLY=ocr|scan|render|compress|corpus runs one part),
# `scripts/bench.sh support` (the anonymizer against Presidio), `scripts/bench.sh upload` (one
# process against dd and clamd, then S3 against boto3 and an edge with one and two cores),
# `scripts/bench.sh tools` (the toolbox's merge, split and rotate against the qpdf CLI, redaction
# of a 30-page PDF, PDF/A against Ghostscript judged by pikepdf's validator;
# QUIRE_BENCH_ONLY=pages|redact|pdfa runs one part),
# `scripts/bench.sh convert` (office and HTML to PDF with the warm engines against a cold
# `soffice --convert-to pdf` and `chromium --print-to-pdf` per file),
# `scripts/bench.sh share` (a 200 MiB file shared end to end encrypted in Chromium, both ways,
# against the same bytes uploaded and downloaded plainly; QUIRE_BENCH_MIB sets the size),
# `scripts/bench.sh image-optimize` (the browser-local image-optimize on 20 real photos in
# Chromium against cwebp and avifenc at the same settings).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bench="${1:?usage: scripts/bench.sh process|support|upload|tools|convert|share|image-optimize}"
# The process and tools benchmarks also read the real-world corpus (.cache/compress-corpus), the
# process one also .cache/compress-corpus-more (setup.sh --corpus fetches it, --tests does not);
# the tools benchmark judges PDF/A outputs with the test tools' pikepdf (.cache/venv).
# The upload benchmark's scale-out half runs moto's S3 server and boto3 from the same venv.
if [ "$bench" = tools ] || [ "$bench" = share ] || [ "$bench" = image-optimize ] || [ "$bench" = upload ]; then
  scripts/setup.sh --tests
elif [ "$bench" = process ]; then
  scripts/setup.sh --corpus
else
  scripts/setup.sh
fi

case "$bench" in
  process)
    need=0
    for cmd in tesseract pdftoppm mutool gs djpeg qpdf curl; do
      command -v "$cmd" >/dev/null 2>&1 || need=1
    done
    if [ "$need" = 1 ]; then
      echo "bench: installing the reference tools"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -q
      apt-get install -y -q --no-install-recommends \
        tesseract-ocr poppler-utils mupdf-tools ghostscript libjpeg-turbo-progs qpdf curl
    fi
    ;;
  support)
    if [ ! -x .cache/presidio/bin/python ]; then
      echo "bench: installing Presidio into .cache/presidio"
      python3 -m venv .cache/presidio
      .cache/presidio/bin/pip install -q presidio-analyzer==2.2.366
    fi
    ;;
  upload)
    CLAMD_PORT=3312 QUIRE_MAX_UPLOAD_SIZE=2147483648 scripts/clamd.sh --test-signatures
    cargo bench -p quire-edge --bench upload
    # The layouts Quire scales out to: an S3 store (moto) beside boto3, and an edge in front of
    # one and of two cores on PostgreSQL.
    exec cargo bench -p quire-edge --bench upload_scale
    ;;
  tools)
    if ! command -v qpdf >/dev/null 2>&1 || ! command -v curl >/dev/null 2>&1 || ! command -v gs >/dev/null 2>&1; then
      echo "bench: installing the reference tools"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -q
      apt-get install -y -q --no-install-recommends qpdf curl ghostscript
    fi
    CLAMD_PORT=3312 scripts/clamd.sh --test-signatures
    ;;
  convert)
    # LibreOffice and Chromium come with the base setup; the real-world office documents too.
    office_dir=.cache/office-corpus
    if [ ! -f "$office_dir/.done" ]; then
      rm -rf "$office_dir"
      scripts/corpus/office.sh "$office_dir"
      touch "$office_dir/.done"
    fi
    export QUIRE_OFFICE_CORPUS="$root/$office_dir"
    cargo bench -p quire-convert --bench office
    exec cargo bench -p quire-convert --bench html
    ;;
  share)
    # The browser test's stack, built optimized; its plain uploads skip the scan, as shares do.
    scripts/clamd.sh --test-signatures
    exec cargo test --release -p quire-e2e --test web share_throughput_in_chromium -- --ignored --nocapture
    ;;
  image-optimize)
    if ! command -v cwebp >/dev/null 2>&1 || ! command -v avifenc >/dev/null 2>&1; then
      echo "bench: installing the reference tools"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -q
      apt-get install -y -q --no-install-recommends webp libavif-bin
    fi
    scripts/corpus/bench-photos.sh .cache/bench-photos
    scripts/clamd.sh --test-signatures
    exec cargo test --release -p quire-e2e --test web image_optimize_bench_in_chromium -- --ignored --nocapture
    ;;
  *) echo "unknown benchmark $bench" >&2; exit 2 ;;
esac
exec cargo bench -p quire-edge --bench "$bench"
