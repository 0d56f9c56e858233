//! Assembles the gRPC server on a bound listener: the quire.v1 services, health, reflection,
//! message size limits from the configuration, request ids in the tracing span.

use std::time::Duration;

use quire_proto::transport::{CONNECTION_WINDOW, STREAM_WINDOW};
use quire_proto::v1::{
    account_service_server::AccountServiceServer, file_service_server::FileServiceServer,
    process_service_server::ProcessServiceServer, support_service_server::SupportServiceServer,
};
use tokio::net::{TcpListener, UnixListener};
use tonic::transport::Server;

use super::{
    account_service::AccountApi, conn, file_service::FileApi, health, process_service::ProcessApi,
    support_service::SupportApi,
};
use crate::{Core, files::sweeper};

pub async fn serve(core: Core, listener: TcpListener) -> anyhow::Result<()> {
    serve_with_shutdown(core, listener, std::future::pending()).await
}

pub async fn serve_with_shutdown(
    core: Core,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> anyhow::Result<()> {
    serve_on(core, listener, None, shutdown).await
}

/// Serves on `tcp` and, when given, on the unix socket `unix` too (for an edge on the same
/// host), until `shutdown` resolves.
pub async fn serve_on(
    core: Core,
    tcp: TcpListener,
    unix: Option<UnixListener>,
    shutdown: impl Future<Output = ()> + Send,
) -> anyhow::Result<()> {
    let (reporter, health_service) = tonic_health::server::health_reporter();
    let background = [
        tokio::spawn(health::watch(
            core.clone(),
            reporter,
            Duration::from_secs(5),
        )),
        tokio::spawn(sweeper::run(core.clone(), Duration::from_secs(60))),
    ];
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(quire_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let max = core.config.grpc_max_message_size;
    let socket = unix.as_ref().and_then(|unix| {
        unix.local_addr()
            .ok()?
            .as_pathname()
            .map(|p| p.display().to_string())
    });
    tracing::info!(addr = %tcp.local_addr()?, socket, "grpc core listening");
    let result = Server::builder()
        .initial_stream_window_size(STREAM_WINDOW)
        .initial_connection_window_size(CONNECTION_WINDOW)
        .trace_fn(|request| {
            let request_id = request
                .headers()
                .get(quire_proto::metadata::REQUEST_ID)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("-")
                .to_owned();
            tracing::info_span!("grpc", path = %request.uri().path(), request_id)
        })
        .add_service(health_service)
        .add_service(reflection)
        .add_service(
            AccountServiceServer::new(AccountApi::new(core.clone()))
                .max_decoding_message_size(max)
                .max_encoding_message_size(max),
        )
        .add_service(
            FileServiceServer::new(FileApi::new(core.clone()))
                .max_decoding_message_size(max)
                .max_encoding_message_size(max),
        )
        .add_service(
            ProcessServiceServer::new(ProcessApi::new(core.clone()))
                .max_decoding_message_size(max)
                .max_encoding_message_size(max),
        )
        .add_service(
            SupportServiceServer::new(SupportApi::new(core.clone()))
                .max_decoding_message_size(max)
                .max_encoding_message_size(max),
        )
        .serve_with_incoming_shutdown(conn::incoming(tcp, unix), shutdown)
        .await;
    for task in background {
        task.abort();
    }
    Ok(result?)
}
