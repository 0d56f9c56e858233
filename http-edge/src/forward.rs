//! What crosses the edge unchanged: `Authorization`, the request id and `Idempotency-Key` go
//! to the core as metadata; response metadata comes back as HTTP headers.

use axum::http::{HeaderMap, HeaderName, HeaderValue};
use quire_proto::metadata::{AUTHORIZATION, IDEMPOTENCY_KEY, REQUEST_ID};
use tonic::metadata::{KeyAndValueRef, MetadataMap, MetadataValue};

/// A gRPC request carrying the caller's credentials and request id.
pub fn request<T>(headers: &HeaderMap, message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    let metadata = request.metadata_mut();
    for name in [AUTHORIZATION, REQUEST_ID, IDEMPOTENCY_KEY] {
        if let Some(value) = headers.get(name).and_then(|v| v.to_str().ok())
            && let Ok(value) = MetadataValue::try_from(value)
        {
            metadata.insert(name, value);
        }
    }
    request
}

/// Metadata keys that belong to gRPC or HTTP/2 framing, not to the response.
fn is_transport_key(key: &str) -> bool {
    key.starts_with("grpc-")
        || matches!(
            key,
            "content-type" | "date" | "server" | "te" | "trailer" | "content-length"
        )
}

/// Copies response metadata into HTTP headers, unchanged.
pub fn copy_metadata(metadata: &MetadataMap, headers: &mut HeaderMap) {
    for entry in metadata.iter() {
        if let KeyAndValueRef::Ascii(key, value) = entry
            && !is_transport_key(key.as_str())
            && let (Ok(name), Ok(value)) = (
                HeaderName::from_bytes(key.as_str().as_bytes()),
                HeaderValue::from_bytes(value.as_encoded_bytes()),
            )
        {
            headers.insert(name, value);
        }
    }
}
