"""The Python gRPC project's own reflection client against Quire: `grpc_reflection`'s
ProtoReflectionDescriptorDatabase speaks only grpc.reflection.v1alpha. With no generated
code at all it lists the services, builds every method's request and response classes
(whose files import others: quire/v1/file.proto, google/protobuf/timestamp.proto) and fills
one in, as a dynamic client or a debugging tool would.

Usage: reflection_client.py <host:port>
"""

import sys

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor_pool import DescriptorPool
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)


def main() -> None:
    channel = grpc.insecure_channel(sys.argv[1])
    database = ProtoReflectionDescriptorDatabase(channel)
    services = list(database.get_services())
    for expected in ["quire.v1.FileService", "quire.v1.ProcessService", "grpc.health.v1.Health"]:
        assert expected in services, services
    pool = DescriptorPool(database)
    methods = 0
    for name in services:
        if name.startswith("grpc.reflection"):
            continue
        service = pool.FindServiceByName(name)
        for method in service.methods:
            for kind in (method.input_type, method.output_type):
                message_factory.GetMessageClass(kind)()
            methods += 1
    assert methods >= 8, methods
    # A message whose fields come from imported files, built and read back.
    file_message = message_factory.GetMessageClass(pool.FindMessageTypeByName("quire.v1.File"))
    info = file_message()
    info.created_at.seconds = 1_700_000_000
    assert file_message.FromString(info.SerializeToString()).created_at.seconds == 1_700_000_000
    print(f"python reflection client: ok ({len(services)} services, {methods} methods)")


if __name__ == "__main__":
    main()
