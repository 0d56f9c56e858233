"""A Python client of quire.v1, generated from proto/ with grpcio-tools at run time.

Proves that a client in another language gets the same API as REST clients: bearer auth,
rate-limit metadata, streaming upload and download, and errors it can tell apart by the
google.rpc.ErrorInfo reason.

Usage: grpc_client.py <host:port> <api key>
"""

import importlib.resources
import pathlib
import sys
import tempfile

import grpc
from grpc_status import rpc_status
from grpc_tools import protoc
from google.rpc import error_details_pb2

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROTOS = ["quire/v1/file.proto", "quire/v1/file_service.proto"]


def generate_stubs() -> None:
    out = tempfile.mkdtemp(prefix="quire-py-")
    well_known = importlib.resources.files("grpc_tools") / "_proto"
    args = [
        "protoc",
        f"-I{ROOT / 'proto'}",
        f"-I{well_known}",
        f"--python_out={out}",
        f"--grpc_python_out={out}",
        *PROTOS,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    sys.path.insert(0, out)


def reason(error: grpc.RpcError) -> str:
    status = rpc_status.from_call(error)
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            assert info.domain == "quire", info
            return info.reason
    raise AssertionError(f"no ErrorInfo in {status}")


def main(target: str, key: str) -> None:
    generate_stubs()
    from quire.v1 import file_service_pb2 as pb
    from quire.v1 import file_service_pb2_grpc as rpc

    payload = "bonjour depuis Python, été 2026\n".encode() * 50_000
    stub = rpc.FileServiceStub(grpc.insecure_channel(target))
    auth = [("authorization", f"Bearer {key}")]

    def messages(name: str, data: bytes):
        yield pb.UploadRequest(metadata=pb.UploadMetadata(filename=name))
        for i in range(0, len(data), 256 * 1024):
            yield pb.UploadRequest(chunk=data[i : i + 256 * 1024])

    response, call = stub.Upload.with_call(messages("python.txt", payload), metadata=auth)
    assert response.file.size == len(payload), response
    assert response.file.mime_type.startswith("text/plain"), response
    metadata = dict(call.initial_metadata())
    assert metadata.get("x-ratelimit-remaining") == "99", metadata

    stream = stub.Download(pb.DownloadRequest(token=response.file.token))
    head = next(stream)
    assert head.WhichOneof("payload") == "metadata", head
    assert head.metadata.length == len(payload)
    body = b"".join(message.chunk for message in stream)
    assert body == payload, "downloaded bytes differ"

    try:
        stub.Upload(messages("anonymous.txt", b"x"))
        raise AssertionError("an upload without a key was accepted")
    except grpc.RpcError as error:
        assert error.code() == grpc.StatusCode.UNAUTHENTICATED, error
        assert reason(error) == "missing-api-key", reason(error)

    try:
        stub.GetFile(pb.GetFileRequest(token="AAAAAAAAAAAAAAAA"), metadata=auth)
        raise AssertionError("an unknown token was found")
    except grpc.RpcError as error:
        assert error.code() == grpc.StatusCode.NOT_FOUND, error
        assert reason(error) == "file-not-found", reason(error)

    print("python grpc client: ok")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
