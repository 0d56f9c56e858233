//! gRPC clients of the core: over lazily connected HTTP/2 channels, so the edge starts (and
//! answers 503) while the core is still coming up, to one or several replicas at
//! `http://host:port` URLs (balanced, [`crate::core_pool`]) or, on the same host, a
//! `unix:///path` socket; or, in `quire serve`, to the core in the same process.

use std::time::Duration;

use quire_proto::transport::{CONNECTION_WINDOW, STREAM_WINDOW};
use quire_proto::v1::{
    account_service_client::AccountServiceClient, file_service_client::FileServiceClient,
    process_service_client::ProcessServiceClient,
    resumable_upload_service_client::ResumableUploadServiceClient,
    share_service_client::ShareServiceClient, support_service_client::SupportServiceClient,
    tool_service_client::ToolServiceClient,
};
use tonic::{Status, body::Body, codegen::http, transport::Endpoint};
use tonic_health::pb::health_client::HealthClient;

use crate::core_pool::{Pool, Targets};
use tower::{ServiceExt, util::BoxCloneSyncService};

/// Either transport to the core, as one type for the clients. Its error is already the
/// `Status` tonic would make of it (a boxed error type trips rust-lang/rust#102211 in the
/// handlers).
pub type CoreChannel = BoxCloneSyncService<http::Request<Body>, http::Response<Body>, Status>;

/// Largest message when no core configuration is at hand (an edge-only build): the core's
/// default QUIRE_GRPC_MAX_MESSAGE_SIZE.
pub const DEFAULT_MAX_MESSAGE: usize = 16 * 1024 * 1024;

#[derive(Clone)]
pub struct CoreClients {
    pub accounts: AccountServiceClient<CoreChannel>,
    pub files: FileServiceClient<CoreChannel>,
    pub process: ProcessServiceClient<CoreChannel>,
    pub resumable: ResumableUploadServiceClient<CoreChannel>,
    pub shares: ShareServiceClient<CoreChannel>,
    pub support: SupportServiceClient<CoreChannel>,
    pub tools: ToolServiceClient<CoreChannel>,
    pub health: HealthClient<CoreChannel>,
}

impl CoreClients {
    /// `max_message` bounds every message both ways, as QUIRE_GRPC_MAX_MESSAGE_SIZE does in the
    /// core: never unlimited. `edge_secret` (QUIRE_EDGE_SECRET) goes with every call, so the core
    /// takes the client addresses this edge states.
    pub fn connect_lazy(
        url: &str,
        max_message: usize,
        edge_secret: Option<&str>,
    ) -> anyhow::Result<CoreClients> {
        let channel: CoreChannel = match url.strip_prefix("unix://") {
            Some(path) => {
                anyhow::ensure!(
                    path.starts_with('/'),
                    "the core's unix socket path must be absolute: {url:?}"
                );
                let path = std::sync::Arc::new(std::path::PathBuf::from(path));
                // The authority only names the core in requests; the connector picks the socket.
                let channel = endpoint(Endpoint::from_static("http://quire-core"))
                    .connect_with_connector_lazy(tower::service_fn(
                        move |_: tonic::transport::Uri| {
                            let path = path.clone();
                            async move {
                                let stream =
                                    tokio::net::UnixStream::connect(path.as_path()).await?;
                                Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(stream))
                            }
                        },
                    ));
                BoxCloneSyncService::new(
                    channel.map_err(|error| Status::from_error(Box::new(error))),
                )
            }
            // One or several replicas (comma-separated, or a name resolving to several).
            None => BoxCloneSyncService::new(Pool::start(Targets::parse(url)?, |e| {
                endpoint(e).tcp_nodelay(true)
            })),
        };
        let secret = edge_secret
            .map(http::HeaderValue::from_str)
            .transpose()
            .map_err(|_| anyhow::anyhow!("the edge secret must be printable ASCII"))?
            .map(|mut value| {
                value.set_sensitive(true);
                value
            });
        let channel = channel.map_request(move |mut request: http::Request<Body>| {
            if let Some(secret) = &secret {
                request
                    .headers_mut()
                    .insert(quire_proto::metadata::EDGE_SECRET, secret.clone());
            }
            request
        });
        Ok(Self::over(BoxCloneSyncService::new(channel), max_message))
    }

    /// Clients of the core in this process (`quire serve`).
    #[cfg(feature = "embedded-core")]
    pub fn in_process(core: quire_core::grpc::InProcess, max_message: usize) -> CoreClients {
        Self::over(BoxCloneSyncService::new(core), max_message)
    }

    fn over(channel: CoreChannel, max_message: usize) -> CoreClients {
        CoreClients {
            accounts: AccountServiceClient::new(channel.clone())
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
            files: FileServiceClient::new(channel.clone())
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
            process: ProcessServiceClient::new(channel.clone())
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
            resumable: ResumableUploadServiceClient::new(channel.clone())
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
            shares: ShareServiceClient::new(channel.clone())
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
            support: SupportServiceClient::new(channel.clone())
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
            tools: ToolServiceClient::new(channel.clone())
                .max_decoding_message_size(max_message)
                .max_encoding_message_size(max_message),
            health: HealthClient::new(channel),
        }
    }
}

fn endpoint(endpoint: Endpoint) -> Endpoint {
    endpoint
        .connect_timeout(Duration::from_secs(5))
        .http2_keep_alive_interval(Duration::from_secs(30))
        .initial_stream_window_size(STREAM_WINDOW)
        .initial_connection_window_size(CONNECTION_WINDOW)
}
