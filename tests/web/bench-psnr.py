"""image-optimize's benchmark (bench-image-optimize.mjs): how close each encoded photo is to its
original, as the PSNR of the luma (Y of YCbCr, in dB; higher is closer), so that sizes are
compared at a known quality and not only at the same setting. Reads JSON from stdin,
[[original, output], ...], and prints [psnr, ...]. The page applies the EXIF orientation and
cwebp does not, so an output is compared with the original as stored and as oriented, at its
size, and the closer of the two is kept."""
import json
import math
import sys

from PIL import Image, ImageChops, ImageOps, ImageStat


def luma(image):
    return image.convert("RGB").convert("YCbCr").getchannel("Y")


def psnr(a, b):
    if a.size != b.size:
        return None
    stat = ImageStat.Stat(ImageChops.difference(a, b).point(lambda v: v * v))
    mse = stat.mean[0]
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


pairs = json.load(sys.stdin)
results = []
originals = {}
for original, output in pairs:
    if original not in originals:
        with Image.open(original) as image:
            image.load()
            originals[original] = [luma(image), luma(ImageOps.exif_transpose(image))]
    with Image.open(output) as encoded:
        encoded = luma(encoded)
    scores = [s for s in (psnr(o, encoded) for o in originals[original]) if s is not None]
    results.append(round(max(scores), 2) if scores else None)
print(json.dumps(results))
