"""Each class of classes.py found in a small PDF made to show it, and not in a plain one.

    .cache/venv/bin/python -m pytest scripts/corpus/test_classes.py
"""

import io
import os
import re
import sys

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name, Stream
from PIL import Image

sys.path.insert(0, os.path.dirname(__file__))
import classes  # noqa: E402


def page_with(pdf, resources):
    pdf.add_blank_page(page_size=(200, 200))
    pdf.pages[0].obj.Resources = resources
    pdf.pages[0].obj.Contents = pdf.make_stream(b"q 100 0 0 100 0 0 cm /Im0 Do Q")


def image(pdf, **keys):
    return pdf.make_stream(b"\x00" * 4, Type=Name.XObject, Subtype=Name.Image, Width=2,
                           Height=2, BitsPerComponent=8, ColorSpace=Name.DeviceGray, **keys)


def found_in(tmp_path, pdf, edit=None):
    path = str(tmp_path / "t.pdf")
    pdf.save(path, compress_streams=False, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    if edit:
        data = open(path, "rb").read()
        open(path, "wb").write(edit(data))
    return classes.classes(path)


def indirect_filter(pdf):
    stream = pdf.make_stream(b"x\x9c\x03\x00\x00\x00\x00\x01")
    stream.Filter = pdf.make_indirect(Name.FlateDecode)
    page_with(pdf, Dictionary(XObject=Dictionary(Im0=image(pdf, SMask=image(pdf)))))
    pdf.Root.Extra = stream


def brotli(pdf):
    pdf.Root.Extra = pdf.make_stream(b"\x0b\x00\x80", Filter=Name.BrotliDecode)


def ttc(pdf):
    font_file = pdf.make_stream(b"ttcf" + b"\x00" * 60)
    pdf.Root.Extra = pdf.make_indirect(Dictionary(Type=Name.FontDescriptor, FontFile2=font_file))


def hybrid(pdf):
    pdf.trailer.AdditionalStreams = Array([pdf.make_stream(b"odf")])


def smask_and_mask(pdf):
    im = image(pdf, SMask=image(pdf), Mask=Array([0, 0]))
    page_with(pdf, Dictionary(XObject=Dictionary(Im0=im)))


def indexed_devicen(pdf):
    tint = pdf.make_indirect(Dictionary(FunctionType=2, Domain=[0, 1], C0=[0, 0, 0, 0],
                                        C1=[0, 0, 0, 1], N=1))
    sep = Array([Name.Separation, Name("/Spot"), Name.DeviceCMYK, tint])
    cs = Array([Name.Indexed, sep, 1, pikepdf.String(b"\x00\xff")])
    page_with(pdf, Dictionary(XObject=Dictionary(Im0=image(pdf, Decode=[0, 1])),
                              ColorSpace=Dictionary(CS0=cs)))


def adobe_cmyk_jpeg(pdf):
    jpeg = io.BytesIO()
    Image.new("CMYK", (8, 8), (10, 20, 30, 40)).save(jpeg, "JPEG")
    im = pdf.make_stream(jpeg.getvalue(), Type=Name.XObject, Subtype=Name.Image, Width=8,
                         Height=8, BitsPerComponent=8, ColorSpace=Name.DeviceCMYK,
                         Filter=Name.DCTDecode, Decode=[1, 0, 1, 0, 1, 0, 1, 0])
    page_with(pdf, Dictionary(XObject=Dictionary(Im0=im)))


def softmask_group_image(pdf):
    group = pdf.make_stream(b"/Im1 Do", Type=Name.XObject, Subtype=Name.Form, BBox=[0, 0, 1, 1],
                            Group=Dictionary(S=Name.Transparency, CS=Name.DeviceGray),
                            Resources=Dictionary(XObject=Dictionary(Im1=image(pdf))))
    gs = Dictionary(Type=Name.ExtGState, SMask=Dictionary(S=Name.Luminosity, G=group))
    page_with(pdf, Dictionary(XObject=Dictionary(Im0=image(pdf)),
                              ExtGState=Dictionary(GS0=gs)))


def corrupt_flate(pdf):
    page_with(pdf, Dictionary(XObject=Dictionary(
        Im0=pdf.make_stream(b"not zlib at all", Type=Name.XObject, Subtype=Name.Image,
                            Width=2, Height=2, BitsPerComponent=8,
                            ColorSpace=Name.DeviceGray, Filter=Name.FlateDecode))))


def type3(pdf):
    pdf.Root.Extra = pdf.make_indirect(Dictionary(Type=Name.Font, Subtype=Name.Type3))


def xref_to_other_header(data):
    """Points the xref entry of object 2 at object 1's header."""
    one = data.index(b"\n1 0 obj") + 1
    xref = data.rindex(b"\nxref\n") + 1
    entries = data[xref:]
    lines = entries.split(b"\n")
    # lines: "xref", "0 N", entry 0, entry 1, entry 2 ...
    lines[4] = b"%010d 00000 n " % one
    return data[:xref] + b"\n".join(lines)


CASES = [
    (indirect_filter, None, {"indirect-filter", "smask-image"}),
    (brotli, None, {"brotli"}),
    (ttc, None, {"ttc-fontfile2"}),
    (hybrid, None, {"hybrid"}),
    (smask_and_mask, None, {"smask-and-mask", "smask-image"}),
    (indexed_devicen, None, {"indexed-devicen"}),
    (adobe_cmyk_jpeg, None, {"adobe-cmyk-jpeg"}),
    (softmask_group_image, None, {"softmask-group-img", "transparency"}),
    (corrupt_flate, None, {"corrupt-stream"}),
    (type3, None, {"type3"}),
    (lambda pdf: page_with(pdf, Dictionary(XObject=Dictionary(Im0=image(pdf)))),
     xref_to_other_header, {"xref-mismatch"}),
]


@pytest.mark.parametrize("make,edit,expected", CASES, ids=[c[0].__name__ for c in CASES])
def test_class_found(tmp_path, make, edit, expected):
    pdf = pikepdf.new()
    make(pdf)
    found = found_in(tmp_path, pdf, edit)
    assert expected <= found, found
    # Nothing but what the PDF was made to show (qpdf's other complaints about a broken xref
    # are "damaged").
    assert found - expected <= {"damaged"}, found


def test_plain_pdf_shows_nothing(tmp_path):
    pdf = pikepdf.new()
    page_with(pdf, Dictionary(XObject=Dictionary(Im0=image(pdf))))
    assert found_in(tmp_path, pdf) == set()


def test_jpeg_without_adobe_segment_is_not_adobe_cmyk():
    jpeg = io.BytesIO()
    Image.new("RGB", (8, 8)).save(jpeg, "JPEG")
    assert not classes.jpeg_adobe_cmyk(jpeg.getvalue())
    assert re.search(r"expected \d+ \d+ obj", "(object 3 0, offset 15): expected 3 0 obj")
