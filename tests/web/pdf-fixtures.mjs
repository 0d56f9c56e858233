// Small PDFs written by hand for the browser test: pages of text, and a form with one field of
// each kind. Plain PDF 1.7 with a classic cross-reference table, as a reader expects.

// A PDF from its objects' bodies (object n is objects[n - 1]); the catalog is object 1.
function pdf(objects) {
  let out = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const stream = (content) => `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`;
const text = (line, x, y, size = 24) => `BT /F1 ${size} Tf ${x} ${y} Td (${line}) Tj ET`;

// `count` A4 pages, each with its number in large type (a different picture per page), but
// those listed in `blank`, which have nothing on them.
export function pagesPdf(count, blank = []) {
  // 1 catalog, 2 pages, 3 font, then a page and its content per page.
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"];
  const kids = [];
  for (let n = 1; n <= count; n++) {
    const page = objects.length + 1;
    kids.push(`${page} 0 R`);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${page + 1} 0 R >>`);
    objects.push(stream(blank.includes(n) ? "" : `${text(`Page ${n}`, 72, 760)}\n${text(String(n), 250, 400, 200)}`));
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${count} >>`;
  return pdf(objects);
}

// One A4 page with a form: a text field with a tooltip and a length limit, a multi-line text
// field, a check box, two radio buttons, a combo box, a list box with several choices, a
// read-only text field.
export function formPdf() {
  const da = "/DA (/Helv 12 Tf 0 g)";
  const rect = (y, w = 200) => `/Rect [72 ${y} ${72 + w} ${y + 20}]`;
  const check = (on) => `<< /N << /${on} 12 0 R /Off 12 0 R >> >>`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R 6 0 R 7 0 R 8 0 R 11 0 R 13 0 R 14 0 R] /DR << /Font << /Helv 4 0 R >> >> /DA (/Helv 12 Tf 0 g) /NeedAppearances true >> >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 15 0 R " +
      "/Annots [5 0 R 6 0 R 7 0 R 9 0 R 10 0 R 11 0 R 13 0 R 14 0 R] >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /TU (Your name) /MaxLen 20 /V (Ada) ${da} ${rect(700)} /P 3 0 R /F 4 >>`,
    `<< /Type /Annot /Subtype /Widget /FT /Tx /T (address) /Ff 4096 ${da} ${rect(620, 300)} /P 3 0 R /F 4 >>`,
    `<< /Type /Annot /Subtype /Widget /FT /Btn /T (agree) /V /Off /AS /Off /AP ${check("Yes")} ${rect(580, 20)} /P 3 0 R /F 4 >>`,
    "<< /FT /Btn /Ff 49152 /T (colour) /V /Off /Kids [9 0 R 10 0 R] >>",
    `<< /Type /Annot /Subtype /Widget /Parent 8 0 R /AS /Off /AP ${check("Red")} ${rect(540, 20)} /P 3 0 R /F 4 >>`,
    `<< /Type /Annot /Subtype /Widget /Parent 8 0 R /AS /Off /AP ${check("Blue")} /Rect [120 540 140 560] /P 3 0 R /F 4 >>`,
    `<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131072 /T (country) /Opt [[(fr) (France)] [(de) (Germany)]] ${da} ${rect(500)} /P 3 0 R /F 4 >>`,
    stream("0 0 1 rg 2 2 16 16 re f"),
    `<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 2097152 /T (langs) /Opt [(English) (French) (German)] ${da} ${rect(420, 200)} /P 3 0 R /F 4 >>`,
    `<< /Type /Annot /Subtype /Widget /FT /Tx /T (reference) /Ff 1 /V (Q-42) ${da} ${rect(380)} /P 3 0 R /F 4 >>`,
    stream(text("A form for the browser test", 72, 780, 18)),
  ];
  // The check boxes' "on" look is object 12, a small form XObject.
  objects[11] = "<< /Type /XObject /Subtype /Form /BBox [0 0 20 20] /Length 23 >>\nstream\n0 0 1 rg 2 2 16 16 re f\nendstream";
  return pdf(objects);
}
