"""The tus project's Python client (tuspy) uploading through a proxy that cuts the first PATCH
off mid-body, as a flaky CI network would: the client asks the server for its offset (HEAD)
and resumes from there. Prints the offsets each PATCH started at, then the stored file's JSON.

usage: tus_client.py <base url> <api key> <file> <chunk size>
"""

import json
import socket
import sys
import threading
import urllib.request

from tusclient import client as tus

base, key, path, chunk_size = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
upstream = base.removeprefix("http://")
up_host, up_port = upstream.rsplit(":", 1)

patch_offsets = []
cut_done = threading.Event()


def pipe(src, dst):
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(conn):
    """One client connection: forwards requests, noting each PATCH's Upload-Offset; the first
    PATCH is cut after half its body has gone through."""
    server = socket.create_connection((up_host, int(up_port)))
    threading.Thread(target=pipe, args=(server, conn), daemon=True).start()
    buffered = b""
    try:
        while data := conn.recv(65536):
            buffered += data
            if b"\r\n\r\n" not in buffered:
                continue
            head, _, body = buffered.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            headers = {k.lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
            if lines[0].startswith("PATCH"):
                patch_offsets.append(int(headers["upload-offset"]))
                if not cut_done.is_set():
                    cut_done.set()
                    half = int(headers["content-length"]) // 2
                    server.sendall(head + b"\r\n\r\n")
                    sent = 0
                    while sent < half:
                        piece = body[: half - sent] if body else conn.recv(min(65536, half - sent))
                        body = b""
                        if not piece:
                            break
                        server.sendall(piece)
                        sent += len(piece)
                    raise ConnectionResetError("cut by the test proxy")
            # Any other request goes through whole, then the connection relays as a pipe.
            server.sendall(buffered)
            pipe(conn, server)
            return
    except OSError:
        pass
    finally:
        # shutdown, not only close: the relay thread's blocked recv keeps a closed socket
        # open, and the server would never see the connection end.
        for s in (conn, server):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()


listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(16)
proxy = "http://127.0.0.1:%d" % listener.getsockname()[1]


def accept():
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


threading.Thread(target=accept, daemon=True).start()

client = tus.TusClient(proxy + "/api/tus", headers={"Authorization": "Bearer " + key})
uploader = client.uploader(
    path,
    chunk_size=chunk_size,
    metadata={"filename": "pipeline-artifact.bin", "expiresIn": "3600"},
    retries=10,
    retry_delay=1,
)
try:
    uploader.upload()
except Exception as error:  # the server's problem+json says why
    print("upload failed:", getattr(error, "response_content", error), file=sys.stderr)
    print("patch offsets so far:", patch_offsets, file=sys.stderr)
    raise
assert cut_done.is_set(), "the proxy never cut a PATCH"

# The stored file, straight from the server.
url = uploader.url.replace(proxy, base)
request = urllib.request.Request(url, headers={"Authorization": "Bearer " + key})
with urllib.request.urlopen(request) as response:
    stored = json.load(response)
print("patch offsets:", json.dumps(patch_offsets))
print("stored:", json.dumps(stored))
print("python tus client: ok")
