#!/usr/bin/env bash
# Real-world office documents for quire-convert's office tests and bench:
#   scripts/corpus/office.sh <dest-dir>
# Takes the test documents (.docx, .pptx, .xlsx, .odt, .ods, .odp) that the source
# distributions of python-docx, python-pptx and odfpy ship, fetched with pip (source archives,
# not installed), and copies them flat into <dest-dir> as <package>--<path with
# slashes as '-'>. Idempotent: does nothing when <dest-dir> already holds documents.
# Point the tests and the bench at it with QUIRE_OFFICE_CORPUS=<dest-dir>.
set -euo pipefail

dest="${1:?usage: scripts/corpus/office.sh <dest-dir>}"
if [ -d "$dest" ] && [ -n "$(find "$dest" -maxdepth 1 -type f -print -quit)" ]; then
  echo "office corpus: $dest already filled"
  exit 0
fi
mkdir -p "$dest"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Pinned so that the corpus is the same everywhere.
packages=(python-docx==1.1.2 python-pptx==1.0.2 odfpy==1.4.1)
python3 -m pip download --quiet --no-deps --no-binary :all: \
  --dest "$tmp" "${packages[@]}"

for archive in "$tmp"/*.tar.gz; do
  name="$(basename "$archive" .tar.gz)"
  mkdir -p "$tmp/x/$name"
  tar -xzf "$archive" -C "$tmp/x/$name"
  (cd "$tmp/x/$name" && find . -type f \( -iname '*.docx' -o -iname '*.xlsx' -o -iname '*.pptx' \
      -o -iname '*.odt' -o -iname '*.ods' -o -iname '*.odp' -o -iname '*.doc' -o -iname '*.xls' \
      -o -iname '*.ppt' -o -iname '*.rtf' \) -print0) |
    while IFS= read -r -d '' file; do
      flat="${file#./}"
      cp "$tmp/x/$name/$file" "$dest/${name}--${flat//\//-}"
    done
done
echo "office corpus: $(find "$dest" -maxdepth 1 -type f | wc -l) documents in $dest"
