"""The browser-local tools' test images (tests/web/local.test.mjs), written with Pillow into the
folder given: photos with the metadata exif-strip must find and remove, and plain images for
the resizing, favicon and preview tools."""
import sys
from pathlib import Path

from PIL import Image, ImageDraw, PngImagePlugin, TiffImagePlugin

out = Path(sys.argv[1])


def scene(width, height):
    """A picture with structure in every part (a plain colour would hide a wrong crop)."""
    img = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(img)
    for x in range(0, width, 40):
        draw.rectangle([x, 0, x + 39, height], fill=(x * 255 // width, 120, 255 - x * 255 // width))
    for y in range(0, height, 60):
        draw.line([0, y, width, y], fill=(255, 255, 255), width=3)
    draw.ellipse([width // 3, height // 4, 2 * width // 3, 3 * height // 4], outline=(0, 0, 0), width=8)
    return img


scene(1920, 1080).save(out / "landscape.jpg", quality=90)

photo = scene(1200, 800)
exif = Image.Exif()
exif[0x010F] = "QuireCam"  # Make
exif[0x0110] = "Q1"  # Model
exif[0x0112] = 1  # Orientation
exif.get_ifd(0x8769)[0x9003] = "2026:11:28 10:00:00"  # DateTimeOriginal
rational = TiffImagePlugin.IFDRational
gps = exif.get_ifd(0x8825)
gps[1] = "N"
gps[2] = (rational(48, 1), rational(51, 1), rational(3024, 100))
gps[3] = "E"
gps[4] = (rational(2, 1), rational(17, 1), rational(402, 10))
photo.save(out / "photo-gps.jpg", quality=88, exif=exif, comment=b"secret comment")

info = PngImagePlugin.PngInfo()
info.add_text("Author", "Alice Example")
scene(900, 600).save(out / "photo-text.png", pnginfo=info)

logo = Image.new("RGBA", (600, 600), (0, 0, 0, 0))
ImageDraw.Draw(logo).ellipse([60, 60, 540, 540], fill=(37, 83, 216, 255))
logo.save(out / "logo.png")

(out / "logo.svg").write_text(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
    '<rect width="100" height="100" rx="20" fill="#2553d8"/>'
    '<circle cx="50" cy="50" r="28" fill="#fff"/></svg>\n'
)
