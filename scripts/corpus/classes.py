#!/usr/bin/env python3
"""Tells which of the hard cases of issue 36 each PDF shows, for choosing and checking corpora.

    classes.py [--tsv OUT] PATH...   PATH: PDF files or directories of them

Run with pikepdf (.cache/venv/bin/python); qpdf's CLI must be on PATH for the damage checks.
Prints one line per file that shows any class, then how many files show each class; --tsv also
writes file<TAB>classes (comma-separated) for every file read.

The classes, each found the way a reader would meet it:
  indirect-filter    a stream whose /Filter or /DecodeParms (or an element of them) is an
                     indirect reference
  brotli             a /BrotliDecode stream
  ttc-fontfile2      a /FontFile2 holding a TrueType Collection ('ttcf')
  hybrid             a LibreOffice hybrid PDF: /AdditionalStreams in the trailer
  acroform-dr-font   an /AcroForm whose /DR has /Font entries
  xfa                an /AcroForm with /XFA
  form-fields        an /AcroForm with /Fields
  smask-and-mask     an image with both /SMask and /Mask
  smask-image        an image with an /SMask
  indexed-devicen    /Indexed over /DeviceN or /Separation
  adobe-cmyk-jpeg    a /DCTDecode image whose JPEG has an Adobe APP14 segment and 4 components
  softmask-group-img a soft mask (/SMask in a graphics state) whose group draws an image
  type3              a Type 3 font
  transparency       a transparency group, a constant alpha below 1 or a blend mode
  corrupt-stream     a stream qpdf cannot decode (Flate, ASCII85, ...)
  xref-mismatch      an xref entry pointing at another object's header ('expected N G obj')
  damaged            any other qpdf warning about the file's structure
  encrypted          a file that opens only with a password (not looked into)
"""

import os
import re
import subprocess
import sys
from decimal import Decimal

import pikepdf
from pikepdf import Array, Dictionary, Name, Stream

CLASSES = [
    "indirect-filter", "brotli", "ttc-fontfile2", "hybrid", "acroform-dr-font", "xfa",
    "form-fields", "smask-and-mask", "smask-image", "indexed-devicen", "adobe-cmyk-jpeg",
    "softmask-group-img", "type3", "transparency", "corrupt-stream", "xref-mismatch", "damaged",
    "encrypted",
]

# The filters qpdf decodes: a failure in any other (images' DCT, JPX, JBIG2) is not qpdf's to judge.
DECODED_FILTERS = {"/FlateDecode", "/Fl", "/ASCII85Decode", "/A85", "/ASCIIHexDecode", "/AHx",
                   "/LZWDecode", "/LZW", "/RunLengthDecode", "/RL"}

# Past this many indirect objects a file is only checked by qpdf: walking every direct object
# of a 500,000-object file in Python takes minutes.
MAX_OBJECTS = 200_000


def children(obj):
    """The direct sub-objects of a dictionary, array or stream dictionary, indirect ones left out
    (they are visited as objects of their own)."""
    if isinstance(obj, Stream):
        obj = obj.stream_dict
    if isinstance(obj, Dictionary):
        items = obj.values()
    elif isinstance(obj, Array):
        items = list(obj)
    else:
        return []
    return [v for v in items if isinstance(v, (Dictionary, Array, Stream)) and not v.is_indirect]


def walk(obj):
    """The object and every direct object inside it."""
    stack = [obj]
    while stack:
        o = stack.pop()
        yield o
        stack.extend(children(o))


def as_list(obj):
    if obj is None:
        return []
    return list(obj) if isinstance(obj, Array) else [obj]


def jpeg_adobe_cmyk(data):
    """Whether a JPEG stream has an Adobe APP14 segment and a frame of 4 components."""
    adobe, components, i = False, 0, 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker == 0xEE and data[i + 4:i + 9] == b"Adobe":
            adobe = True
        elif 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC) and i + 9 < len(data):
            components = data[i + 9]
        if marker == 0xDA:  # the scan starts: every header segment has been seen
            break
        i += 2 + length
    return adobe and components == 4


def draws_image(form, seen):
    """Whether a form XObject (a soft mask's group) draws an image, through nested forms too."""
    if form.objgen in seen:
        return False
    seen.add(form.objgen)
    xobjects = form.get("/Resources", Dictionary()).get("/XObject", Dictionary())
    for x in xobjects.values():
        if not isinstance(x, Stream):
            continue
        if x.get("/Subtype") == Name.Image:
            return True
        if x.get("/Subtype") == Name.Form and draws_image(x, seen):
            return True
    return False


def stream_classes(stream, found):
    d = stream.stream_dict
    for key in ("/Filter", "/DecodeParms"):
        value = d.get(key)
        if any(getattr(v, "is_indirect", False) for v in [value, *as_list(value)]):
            found.add("indirect-filter")
    filters = [str(f) for f in as_list(d.get("/Filter")) if isinstance(f, Name)]
    if "/BrotliDecode" in filters:
        found.add("brotli")
    # qpdf --check decodes page contents only: the other streams (images, fonts, forms) are
    # decoded here, through the filters qpdf implements.
    if filters and set(filters) <= DECODED_FILTERS:
        try:
            stream.read_bytes()
        except pikepdf.DataDecodingError:
            found.add("corrupt-stream")
    if d.get("/Subtype") == Name.Image:
        if "/SMask" in d:
            found.add("smask-image")
            if "/Mask" in d:
                found.add("smask-and-mask")
        if filters and filters[-1] == "/DCTDecode" and len(filters) == 1:
            if jpeg_adobe_cmyk(bytes(stream.read_raw_bytes()[:65536])):
                found.add("adobe-cmyk-jpeg")
    if d.get("/Subtype") == Name.Form and isinstance(d.get("/Group"), Dictionary):
        if d.Group.get("/S") == Name.Transparency:
            found.add("transparency")


def dict_classes(obj, pdf, found, seen_forms):
    if obj.get("/Subtype") == Name.Type3:
        found.add("type3")
    ff2 = obj.get("/FontFile2")
    if isinstance(ff2, Stream):
        try:
            if bytes(ff2.read_bytes()[:4]) == b"ttcf":
                found.add("ttc-fontfile2")
        except pikepdf.PdfError:
            pass
    smask = obj.get("/SMask")
    if isinstance(smask, Dictionary) and isinstance(smask.get("/G"), Stream):
        if draws_image(smask.G, seen_forms):
            found.add("softmask-group-img")
        found.add("transparency")
    for key in ("/CA", "/ca"):
        value = obj.get(key)
        if isinstance(value, (int, Decimal)) and value < 1:
            found.add("transparency")
    if any(b not in (Name.Normal, Name.Compatible) for b in as_list(obj.get("/BM"))):
        found.add("transparency")
    group = obj.get("/Group")
    if obj.get("/Type") == Name.Page and isinstance(group, Dictionary):
        if group.get("/S") == Name.Transparency:
            found.add("transparency")


def array_classes(arr, found):
    if len(arr) >= 2 and arr[0] == Name.Indexed:
        base = arr[1]
        if isinstance(base, Array) and len(base) and base[0] in (Name.DeviceN, Name.Separation):
            found.add("indexed-devicen")


def object_classes(pdf):
    found, seen_forms = set(), set()
    trailer = pdf.trailer
    if "/AdditionalStreams" in trailer:
        found.add("hybrid")
    form = pdf.Root.get("/AcroForm")
    if isinstance(form, Dictionary):
        fonts = form.get("/DR", Dictionary()).get("/Font")
        if isinstance(fonts, Dictionary) and len(fonts.keys()):
            found.add("acroform-dr-font")
        if "/XFA" in form:
            found.add("xfa")
        if len(as_list(form.get("/Fields"))):
            found.add("form-fields")
    if len(pdf.objects) > MAX_OBJECTS:
        return found
    for top in pdf.objects:
        for o in walk(top):
            if isinstance(o, Stream):
                stream_classes(o, found)
                dict_classes(o.stream_dict, pdf, found, seen_forms)
            elif isinstance(o, Dictionary):
                dict_classes(o, pdf, found, seen_forms)
            elif isinstance(o, Array):
                array_classes(o, found)
    return found


# qpdf --check's warnings: an object that is not where the xref says, a stream it cannot decode;
# those about linearization hints say nothing of what a reader meets, and are left out.
XREF_MISMATCH = re.compile(r"expected \d+ \d+ obj")
STREAM_ERROR = re.compile(
    r"(error decoding stream|inflate|zlib|ASCII85|LZW|RunLength|predictor|decompress)", re.I)
LINEARIZATION = re.compile(
    r"(hint|lineariz|shared (object|identifier)|first page|nshared|count mismatch for page)", re.I)


def qpdf_classes(path):
    found = set()
    try:
        got = subprocess.run(["qpdf", "--check", path], capture_output=True, text=True,
                             errors="replace", timeout=300)
    except subprocess.TimeoutExpired:
        return {"damaged"}
    for line in (got.stdout + got.stderr).splitlines():
        # "No syntax or stream encoding errors found" is the all-clear, not a warning.
        if "WARNING" not in line and not line.startswith("qpdf:") or "succeeded" in line:
            continue
        if LINEARIZATION.search(line):
            continue
        if XREF_MISMATCH.search(line):
            found.add("xref-mismatch")
        elif STREAM_ERROR.search(line):
            found.add("corrupt-stream")
        else:
            found.add("damaged")
    return found


def classes(path):
    found = qpdf_classes(path)
    try:
        with pikepdf.open(path) as pdf:
            found |= object_classes(pdf)
    except pikepdf.PasswordError:
        found.add("encrypted")
    except pikepdf.PdfError:
        found.add("damaged")
    return found


def pdf_paths(args):
    for arg in args:
        if os.path.isdir(arg):
            for f in sorted(os.listdir(arg)):
                if f.lower().endswith(".pdf"):
                    yield os.path.join(arg, f)
        else:
            yield arg


def main():
    args = sys.argv[1:]
    tsv = None
    if args[:1] == ["--tsv"]:
        tsv, args = args[1], args[2:]
    if not args:
        raise SystemExit(__doc__)
    counts, rows = {c: 0 for c in CLASSES}, []
    for path in pdf_paths(args):
        found = classes(path)
        shown = [c for c in CLASSES if c in found]
        rows.append((os.path.basename(path), shown))
        for c in shown:
            counts[c] += 1
        if shown:
            print(f"{os.path.basename(path)}\t{','.join(shown)}", flush=True)
    print(f"\n{len(rows)} files")
    for c in CLASSES:
        print(f"{counts[c]:5}  {c}")
    if tsv:
        with open(tsv, "w") as f:
            f.write("file\tclasses\n")
            for name, shown in rows:
                f.write(f"{name}\t{','.join(shown)}\n")


if __name__ == "__main__":
    main()
