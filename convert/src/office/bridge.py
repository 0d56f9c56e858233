# Quire's bridge to a warm LibreOffice, embedded in quire-convert and run by /usr/bin/python3
# (Debian's python3-uno). Usage: bridge.py <program dir> <profile dir> <template dir> <pipe>
#
# Starts soffice.bin as its own child (so both are one supervised process group), starting it
# again when it exits with 81 (LibreOffice asks for that after creating a new profile; the
# soffice script's oosplash does the same), and keeps the freshly created profile as a template
# for the next engine. Connects to soffice's named pipe (retrying while it starts), prints
# {"ready": true, "soffice_pid": N}, then
# reads one JSON request per line on stdin, {"input": path, "output": path}, and answers one
# JSON line on stdout: {"ok": true, "kind": "text"|"spreadsheet"|"presentation"} or
# {"error": "unreadable"|"password"|"crashed"|"engine", "reason": "..."}. A bad document fails its own
# request only; a lost connection to soffice ends the bridge (the Rust side restarts both).
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile

import uno
import unohelper
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException
from com.sun.star.lang import DisposedException
from com.sun.star.task import XInteractionHandler

# Import filters we accept, by document kind: Word, Excel, PowerPoint, OpenDocument and RTF.
# Anything else LibreOffice can open (plain text, HTML, PDF, images) is refused, so that a
# PDF renamed .docx or random bytes is reported unreadable instead of printed as garbage.
ACCEPTED = {
    "text": {
        "MS Word 2007 XML", "MS Word 2007 XML Template", "MS Word 2007 XML VBA",
        "Office Open XML Text", "Office Open XML Text Template",
        "MS Word 97", "MS Word 97 Vorlage", "MS Word 95", "MS Word 95 Vorlage",
        "MS WinWord 6.0", "MS WinWord 5",
        "writer8", "writer8_template", "StarOffice XML (Writer)",
        "writer_StarOffice_XML_Writer_Template", "OpenDocument Text Flat XML",
        "Rich Text Format",
    },
    "spreadsheet": {
        "Calc MS Excel 2007 XML", "Calc MS Excel 2007 VBA XML", "Calc MS Excel 2007 XML Template",
        "Calc MS Excel 2007 Binary", "Calc Office Open XML", "Calc Office Open XML Template",
        "MS Excel 97", "MS Excel 97 Vorlage/Template", "MS Excel 95",
        "MS Excel 95 Vorlage/Template", "MS Excel 5.0/95", "MS Excel 5.0/95 Vorlage/Template",
        "MS Excel 4.0", "MS Excel 4.0 Vorlage/Template",
        "calc8", "calc8_template", "StarOffice XML (Calc)", "calc_StarOffice_XML_Calc_Template",
        "OpenDocument Spreadsheet Flat XML",
    },
    "presentation": {
        "Impress MS PowerPoint 2007 XML", "Impress MS PowerPoint 2007 XML AutoPlay",
        "Impress MS PowerPoint 2007 XML Template", "Impress MS PowerPoint 2007 XML VBA",
        "Impress Office Open XML", "Impress Office Open XML Template",
        "Impress Office Open XML AutoPlay",
        "MS PowerPoint 97", "MS PowerPoint 97 AutoPlay", "MS PowerPoint 97 Vorlage",
        "impress8", "impress8_template", "StarOffice XML (Impress)",
        "impress_StarOffice_XML_Impress_Template", "OpenDocument Presentation Flat XML",
    },
}
EXPORT = {
    "text": "writer_pdf_Export",
    "spreadsheet": "calc_pdf_Export",
    "presentation": "impress_pdf_Export",
}
CONNECT_FOR_SECONDS = 120.0
# Exit status by which soffice.bin asks to be started again (E_RESTART / EXITHELPER_NORMAL_RESTART).
RESTART = 81


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def say(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


class Refusing(unohelper.Base, XInteractionHandler):
    """Answers every question LibreOffice asks while loading with "abort" (a headless load
    must never wait), and remembers whether one of them asked for a password."""

    def __init__(self):
        self.asked_password = False

    def handle(self, request):
        question = request.getRequest()
        if "PasswordRequest" in str(getattr(question, "typeName", "")) or "PasswordRequest" in str(
            type(question)
        ):
            self.asked_password = True
        chosen = None
        for continuation in request.getContinuations():
            names = [t.typeName for t in continuation.getTypes()]
            if "com.sun.star.task.XInteractionAbort" in names:
                chosen = continuation
                break
            if "com.sun.star.task.XInteractionDisapprove" in names and chosen is None:
                chosen = continuation
        if chosen is not None:
            chosen.select()


class Soffice:
    """soffice.bin as a child: headless, no UI, no document recovery, its own profile, and
    listening on a named pipe only (no TCP port). `setpriv --pdeathsig KILL` kills it when the
    bridge dies, whatever the way."""

    def __init__(self, program_dir, profile, template, pipe):
        self.args = [
            "setpriv", "--pdeathsig", "KILL", "--",
            os.path.join(program_dir, "soffice.bin"),
            "--headless", "--invisible", "--norestore", "--nolockcheck", "--nodefault",
            "--nologo",
            "-env:UserInstallation=" + uno.systemPathToFileUrl(profile),
            "--accept=pipe,name=%s;urp;StarOffice.ComponentContext" % pipe,
        ]
        self.profile = profile
        self.template = template
        # A first start on a new machine (fresh font caches, a profile being created) now and
        # then aborts; one more try is given while starting, never while converting.
        self.start_retries = 1
        self.start()

    def start(self):
        self.process = subprocess.Popen(self.args, stdin=subprocess.DEVNULL, stdout=sys.stderr)

    def alive(self, starting=False):
        """Whether soffice runs, starting it again (once per request) if it asked to."""
        status = self.process.poll()
        if status is None:
            return True
        if status == RESTART:
            self.keep_template()
            self.start()
            return True
        if starting and self.start_retries > 0:
            self.start_retries -= 1
            sys.stderr.write("soffice.bin exited while starting (status %s), again\n" % status)
            self.start()
            return True
        return False

    def keep_template(self):
        """The profile LibreOffice just created, before any document: copied for the next
        engine, which then starts without the restart."""
        if not self.template or os.path.exists(self.template):
            return
        partial = "%s.%d.partial" % (self.template, os.getpid())
        try:
            shutil.copytree(self.profile, partial, symlinks=True)
            os.rename(partial, self.template)
        except OSError:
            shutil.rmtree(partial, ignore_errors=True)


def connect(soffice, pipe):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local
    )
    url = "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe
    started = time.monotonic()
    while True:
        try:
            context = resolver.resolve(url)
            return context.ServiceManager.createInstanceWithContext(
                "com.sun.star.frame.Desktop", context
            )
        except NoConnectException:
            if not soffice.alive(starting=True):
                raise RuntimeError(
                    "LibreOffice (soffice.bin) exited while starting, with status %s"
                    % soffice.process.returncode
                )
            if time.monotonic() - started > CONNECT_FOR_SECONDS:
                raise RuntimeError("LibreOffice did not open its pipe in time")
            time.sleep(0.05)


def password_protected(path):
    """Whether a file LibreOffice could not load is encrypted: an OpenDocument whose manifest
    has encryption data, or an OOXML file in an OLE container with an EncryptionInfo stream.
    (LibreOffice 7.4 fails such loads without asking the interaction handler.)"""
    try:
        with open(path, "rb") as f:
            head = f.read(8)
            if head.startswith(b"PK\x03\x04"):
                with zipfile.ZipFile(path) as z:
                    return b"encryption-data" in z.read("META-INF/manifest.xml")
            if head == b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1":
                f.seek(0)
                return "EncryptionInfo".encode("utf-16-le") in f.read()
    except (OSError, KeyError, zipfile.BadZipFile):
        pass
    return False


def kind_of(document, filter_name):
    for kind, filters in ACCEPTED.items():
        if filter_name in filters:
            return kind
    return None


def convert(desktop, request):
    url = uno.systemPathToFileUrl(os.path.abspath(request["input"]))
    out_url = uno.systemPathToFileUrl(os.path.abspath(request["output"]))
    handler = Refusing()
    load = (
        prop("Hidden", True),
        prop("ReadOnly", True),
        # com.sun.star.document.UpdateDocMode.NO_UPDATE: no links, no OLE objects refreshed.
        prop("UpdateDocMode", 0),
        # com.sun.star.document.MacroExecMode.NEVER_EXECUTE.
        prop("MacroExecutionMode", 0),
        prop("InteractionHandler", handler),
    )
    try:
        document = desktop.loadComponentFromURL(url, "_blank", 0, load)
    except DisposedException:
        raise
    except Exception as error:  # IOException, IllegalArgumentException: the file itself
        document = None
        detail = str(getattr(error, "Message", "") or error)
    else:
        detail = "LibreOffice returned no document"
    if handler.asked_password or (document is None and password_protected(request["input"])):
        if document is not None:
            document.close(True)
        return {"error": "password", "reason": "the document is protected by a password"}
    if document is None:
        return {"error": "unreadable", "reason": detail}
    try:
        args = {p.Name: p.Value for p in document.getArgs()}
        kind = kind_of(document, args.get("FilterName", ""))
        if kind is None:
            return {
                "error": "unreadable",
                "reason": "LibreOffice read it as %r, not an office document"
                % args.get("FilterName", "unknown"),
            }
        document.storeToURL(
            out_url, (prop("FilterName", EXPORT[kind]), prop("Overwrite", True))
        )
        return {"ok": True, "kind": kind}
    except DisposedException:
        raise
    except Exception as error:
        return {"error": "unreadable", "reason": str(getattr(error, "Message", "") or error)}
    finally:
        try:
            document.close(True)
        except DisposedException:
            raise
        except Exception:
            document.dispose()


def main():
    program_dir, profile, template, pipe = sys.argv[1:5]
    try:
        soffice = Soffice(program_dir, profile, template, pipe)
        desktop = connect(soffice, pipe)
    except Exception as error:
        say({"error": "engine", "reason": str(error)})
        return 1
    say({"ready": True, "soffice_pid": soffice.process.pid})
    for line in sys.stdin:
        if not line.strip():
            continue
        if soffice.process.poll() is not None:
            say({"error": "engine", "reason": "LibreOffice exited between two conversions"})
            return 1
        try:
            answer = convert(desktop, json.loads(line))
        except Exception as error:  # DisposedException: the connection itself failed
            answer = {"error": "engine", "reason": "the bridge to LibreOffice failed: %s" % error}
        if soffice.process.poll() is not None:
            # It died on this document (a crash, or killed for its limits): the document's fault
            # as far as anyone can tell; the Rust side starts a new engine.
            say({"error": "crashed", "reason": "LibreOffice stopped while reading the document"})
            return 1
        say(answer)
        if answer.get("error") == "engine":
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
