# Minimal office documents for quire-convert's office tests, written with the standard
# library only: office_fixtures.py <kind> <path> <word> [<linked image url>].
# kind: docx xlsx pptx odt odt-password odp ods rtf. Each holds <word> (a word found nowhere else) and the
# text documents a second page.
import sys
import zipfile

kind, path, word = sys.argv[1:4]
link = sys.argv[4] if len(sys.argv) > 4 else None

RELS_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
DOC_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def content_types(overrides):
    parts = "".join(
        '<Override PartName="%s" ContentType="%s"/>' % item for item in overrides
    )
    return (
        XML + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>' + parts + "</Types>"
    )


def rels(items):
    return (
        XML + '<Relationships xmlns="%s">' % RELS_NS
        + "".join(
            '<Relationship Id="%s" Type="%s/%s" Target="%s"/>' % item for item in items
        )
        + "</Relationships>"
    )


def write(files, mimetype=None):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        if mimetype:
            z.writestr(zipfile.ZipInfo("mimetype"), mimetype, compress_type=zipfile.ZIP_STORED)
        for name, text in files.items():
            z.writestr(name, text)


# The manifest entry of a password-protected ODF part (AES-256-CBC, PBKDF2): enough for
# LibreOffice to ask for the password before it reads the part's bytes.
ENCRYPTED = (
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" manifest:size="900">'
    '<manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=">'
    '<manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="AAAAAAAAAAAAAAAAAAAAAA=="/>'
    '<manifest:start-key-generation manifest:start-key-generation-name="http://www.w3.org/2000/09/xmldsig#sha256" manifest:key-size="32"/>'
    '<manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="32" manifest:iteration-count="1000" manifest:salt="AAAAAAAAAAAAAAAAAAAAAA=="/>'
    "</manifest:encryption-data></manifest:file-entry>"
)


def odf(mimetype, body, namespaces="", encrypted=False):
    entry = ENCRYPTED if encrypted else (
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
    )
    manifest = (
        XML + '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="%s"/>%s'
        "</manifest:manifest>" % (mimetype, entry)
    )
    content = (
        XML + '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
        'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
        'xmlns:xlink="http://www.w3.org/1999/xlink" '
        'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
        'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" %s office:version="1.2">'
        "<office:automatic-styles>"
        '<style:style style:name="Break" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style>'
        "</office:automatic-styles>"
        "<office:body>%s</office:body></office:document-content>" % (namespaces, body)
    )
    if encrypted:
        content = bytes(range(256)) * 4
    write({"META-INF/manifest.xml": manifest, "content.xml": content}, mimetype)


if kind == "docx":
    document = (
        XML + '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
        "<w:p><w:r><w:t>Hello %s from a DOCX</w:t></w:r></w:p>"
        '<w:p><w:r><w:br w:type="page"/><w:t>second page</w:t></w:r></w:p>'
        "</w:body></w:document>" % word
    )
    write({
        "[Content_Types].xml": content_types([(
            "/word/document.xml",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
        )]),
        "_rels/.rels": rels([("rId1", DOC_REL, "officeDocument", "word/document.xml")]),
        "word/document.xml": document,
    })
elif kind == "xlsx":
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    write({
        "[Content_Types].xml": content_types([
            ("/xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"),
            ("/xl/worksheets/sheet1.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"),
        ]),
        "_rels/.rels": rels([("rId1", DOC_REL, "officeDocument", "xl/workbook.xml")]),
        "xl/workbook.xml": XML + '<workbook xmlns="%s" xmlns:r="%s"><sheets>'
        '<sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>' % (main, DOC_REL),
        "xl/_rels/workbook.xml.rels": rels([("rId1", DOC_REL, "worksheet", "worksheets/sheet1.xml")]),
        # The word alone on its row: a cell's text is cut where the next cell has a value.
        "xl/worksheets/sheet1.xml": XML + '<worksheet xmlns="%s"><sheetData>'
        '<row r="1"><c r="A1" t="inlineStr"><is><t>%s</t></is></c></row>'
        '<row r="2"><c r="A2"><v>42</v></c></row>'
        "</sheetData></worksheet>" % (main, word),
    })
elif kind == "pptx":
    p = "http://schemas.openxmlformats.org/presentationml/2006/main"
    a = "http://schemas.openxmlformats.org/drawingml/2006/main"
    ns = 'xmlns:p="%s" xmlns:a="%s" xmlns:r="%s"' % (p, a, DOC_REL)
    tree = (
        '<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>'
        "<p:grpSpPr/>%s</p:spTree></p:cSld>"
    )
    shape = (
        '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Text"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>'
        '<p:spPr><a:xfrm><a:off x="914400" y="914400"/><a:ext cx="7315200" cy="1371600"/></a:xfrm>'
        '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>'
        '<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="3200"/><a:t>Hello %s from a PPTX</a:t></a:r></a:p></p:txBody></p:sp>'
        % word
    )
    theme = (
        XML + '<a:theme xmlns:a="%s" name="Plain"><a:themeElements>'
        '<a:clrScheme name="Plain"><a:dk1><a:srgbClr val="000000"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1>'
        '<a:dk2><a:srgbClr val="000000"/></a:dk2><a:lt2><a:srgbClr val="FFFFFF"/></a:lt2>'
        + "".join('<a:accent%d><a:srgbClr val="000000"/></a:accent%d>' % (i, i) for i in range(1, 7))
        + '<a:hlink><a:srgbClr val="0000FF"/></a:hlink><a:folHlink><a:srgbClr val="800080"/></a:folHlink></a:clrScheme>'
        '<a:fontScheme name="Plain"><a:majorFont><a:latin typeface="Liberation Sans"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont>'
        '<a:minorFont><a:latin typeface="Liberation Sans"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>'
        '<a:fmtScheme name="Plain"><a:fillStyleLst>' + '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>' * 3
        + "</a:fillStyleLst><a:lnStyleLst>" + '<a:ln w="9525"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>' * 3
        + "</a:lnStyleLst><a:effectStyleLst>" + "<a:effectStyle><a:effectLst/></a:effectStyle>" * 3
        + "</a:effectStyleLst><a:bgFillStyleLst>" + '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>' * 3
        + "</a:bgFillStyleLst></a:fmtScheme></a:themeElements></a:theme>" % ()
    ) % a
    pml = "application/vnd.openxmlformats-officedocument.presentationml."
    write({
        "[Content_Types].xml": content_types([
            ("/ppt/presentation.xml", pml + "presentation.main+xml"),
            ("/ppt/slides/slide1.xml", pml + "slide+xml"),
            ("/ppt/slideLayouts/slideLayout1.xml", pml + "slideLayout+xml"),
            ("/ppt/slideMasters/slideMaster1.xml", pml + "slideMaster+xml"),
            ("/ppt/theme/theme1.xml", "application/vnd.openxmlformats-officedocument.theme+xml"),
        ]),
        "_rels/.rels": rels([("rId1", DOC_REL, "officeDocument", "ppt/presentation.xml")]),
        "ppt/presentation.xml": XML + "<p:presentation %s>"
        '<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>'
        '<p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst>'
        '<p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/>'
        "</p:presentation>" % ns,
        "ppt/_rels/presentation.xml.rels": rels([
            ("rId1", DOC_REL, "slideMaster", "slideMasters/slideMaster1.xml"),
            ("rId2", DOC_REL, "slide", "slides/slide1.xml"),
            ("rId3", DOC_REL, "theme", "theme/theme1.xml"),
        ]),
        "ppt/slides/slide1.xml": XML + "<p:sld %s>%s</p:sld>" % (ns, tree % shape),
        "ppt/slides/_rels/slide1.xml.rels": rels([("rId1", DOC_REL, "slideLayout", "../slideLayouts/slideLayout1.xml")]),
        "ppt/slideLayouts/slideLayout1.xml": XML + '<p:sldLayout %s type="blank">%s</p:sldLayout>' % (ns, tree % ""),
        "ppt/slideLayouts/_rels/slideLayout1.xml.rels": rels([("rId1", DOC_REL, "slideMaster", "../slideMasters/slideMaster1.xml")]),
        "ppt/slideMasters/slideMaster1.xml": XML + "<p:sldMaster %s>%s"
        '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" '
        'accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>'
        '<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>' % (ns, tree % ""),
        "ppt/slideMasters/_rels/slideMaster1.xml.rels": rels([
            ("rId1", DOC_REL, "slideLayout", "../slideLayouts/slideLayout1.xml"),
            ("rId2", DOC_REL, "theme", "../theme/theme1.xml"),
        ]),
        "ppt/theme/theme1.xml": theme,
    })
elif kind == "odt":
    image = ""
    if link:
        image = (
            '<text:p><draw:frame draw:name="Linked" svg:width="2cm" svg:height="2cm" text:anchor-type="as-char">'
            '<draw:image xlink:href="%s" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/>'
            "</draw:frame></text:p>" % link
        )
    odf(
        "application/vnd.oasis.opendocument.text",
        "<office:text><text:p>Hello %s from an ODT</text:p>%s"
        '<text:p text:style-name="Break">second page</text:p></office:text>' % (word, image),
    )
elif kind == "odt-password":
    odf(
        "application/vnd.oasis.opendocument.text",
        "<office:text><text:p>%s</text:p></office:text>" % word,
        encrypted=True,
    )
elif kind == "ods":
    odf(
        "application/vnd.oasis.opendocument.spreadsheet",
        '<office:spreadsheet><table:table table:name="Sheet1"><table:table-row>'
        '<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>'
        "</table:table-row></table:table></office:spreadsheet>" % word,
    )
elif kind == "odp":
    odf(
        "application/vnd.oasis.opendocument.presentation",
        '<office:presentation><draw:page draw:name="One">'
        '<draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box>'
        "<text:p>Hello %s from an ODP</text:p></draw:text-box></draw:frame>"
        "</draw:page></office:presentation>" % word,
    )
elif kind == "rtf":
    with open(path, "w") as f:
        f.write(
            "{\\rtf1\\ansi{\\fonttbl\\f0\\fswiss Liberation Sans;}\\f0\\pard Hello %s from an RTF\\par"
            "\\page second page\\par}" % word
        )
else:
    sys.exit("unknown kind " + kind)
