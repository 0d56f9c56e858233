//! Assembles the core's gRPC services once (quire.v1, health, reflection, message size limits
//! from the configuration, request ids in the tracing span) and serves them on bound listeners
//! and to clients in the same process.

use std::time::Duration;

use quire_proto::transport::{CONNECTION_WINDOW, STREAM_WINDOW};
use quire_proto::v1::{
    account_service_server::AccountServiceServer, file_service_server::FileServiceServer,
    process_service_server::ProcessServiceServer,
    resumable_upload_service_server::ResumableUploadServiceServer,
    share_service_server::ShareServiceServer, support_service_server::SupportServiceServer,
    tool_service_server::ToolServiceServer,
};
use tokio::{
    net::{TcpListener, UnixListener},
    task::JoinHandle,
};
use tonic::{
    codegen::http::{HeaderMap, Uri},
    service::Routes,
    transport::Server,
};

use super::{
    account_service::AccountApi, conn, file_service::FileApi, health, in_process::InProcess,
    process_service::ProcessApi, reflection::Reflection, resumable_service::ResumableApi,
    share_service::ShareApi, support_service::SupportApi, tool_service::ToolApi,
};
use crate::{Core, files::sweeper};

/// The core's services, with the health watch and the sweeper running beside them until this
/// is dropped.
pub struct Services {
    routes: Routes,
    background: [JoinHandle<()>; 3],
}

impl Services {
    pub fn start(core: &Core) -> anyhow::Result<Services> {
        let (reporter, health_service) = tonic_health::server::health_reporter();
        let reflection = Reflection::new(&[
            quire_proto::FILE_DESCRIPTOR_SET,
            tonic_health::pb::FILE_DESCRIPTOR_SET,
        ])?;
        let max = core.config.grpc_max_message_size;
        let routes = Routes::new(health_service)
            .add_service(reflection.v1())
            .add_service(reflection.v1alpha())
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
                ResumableUploadServiceServer::new(ResumableApi::new(core.clone()))
                    .max_decoding_message_size(max)
                    .max_encoding_message_size(max),
            )
            .add_service(
                ShareServiceServer::new(ShareApi::new(core.clone()))
                    .max_decoding_message_size(max)
                    .max_encoding_message_size(max),
            )
            .add_service(
                SupportServiceServer::new(SupportApi::new(core.clone()))
                    .max_decoding_message_size(max)
                    .max_encoding_message_size(max),
            )
            .add_service(
                ToolServiceServer::new(ToolApi::new(core.clone()))
                    .max_decoding_message_size(max)
                    .max_encoding_message_size(max),
            )
            .prepare();
        let background = [
            tokio::spawn(health::watch(
                core.clone(),
                reporter,
                Duration::from_secs(5),
            )),
            tokio::spawn(sweeper::run(core.clone(), Duration::from_secs(60))),
            tokio::spawn(crate::quota::replicas::watch(core.clone())),
        ];
        Ok(Services { routes, background })
    }

    /// A transport for a gRPC client in this process.
    pub fn in_process(&self) -> InProcess {
        InProcess::new(self.routes.clone())
    }

    /// Serves on `tcp` and, when given, on the unix socket `unix` too, until `shutdown`
    /// resolves.
    pub async fn serve(
        self,
        tcp: TcpListener,
        unix: Option<UnixListener>,
        shutdown: impl Future<Output = ()> + Send,
    ) -> anyhow::Result<()> {
        let socket = unix.as_ref().and_then(|unix| {
            unix.local_addr()
                .ok()?
                .as_pathname()
                .map(|p| p.display().to_string())
        });
        tracing::info!(addr = %tcp.local_addr()?, socket, "grpc core listening");
        Server::builder()
            .initial_stream_window_size(STREAM_WINDOW)
            .initial_connection_window_size(CONNECTION_WINDOW)
            .trace_fn(|request| request_span(request.uri(), request.headers()))
            .add_routes(self.routes.clone())
            .serve_with_incoming_shutdown(conn::incoming(tcp, unix), shutdown)
            .await?;
        Ok(())
    }
}

impl Drop for Services {
    fn drop(&mut self) {
        for task in &self.background {
            task.abort();
        }
    }
}

/// The span of one call, with the request id the edge passed along.
pub(super) fn request_span(uri: &Uri, headers: &HeaderMap) -> tracing::Span {
    let request_id = headers
        .get(quire_proto::metadata::REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    tracing::info_span!("grpc", path = %uri.path(), request_id)
}
