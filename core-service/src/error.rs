//! The core's error type: an [`ErrorCode`] from the shared table, a message that says what was
//! wrong and how to fix it, and response metadata (rate-limit figures, `retry-after`).

use quire_proto::ErrorCode;
use tonic::{
    Status,
    metadata::{MetadataMap, MetadataValue},
};

#[derive(Debug)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
    /// Boxed: errors travel through every `Result` of the core and most carry none.
    pub metadata: Box<MetadataMap>,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            metadata: Box::default(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidArgument, message)
    }

    /// An unexpected failure: logged with its cause, answered without internals.
    pub fn internal(context: &str, cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, context, "internal error");
        Self::new(
            ErrorCode::Internal,
            format!(
                "{context} failed on the server; retry, and report the X-Request-Id if it persists"
            ),
        )
    }

    pub fn with_metadata(mut self, key: &'static str, value: impl ToString) -> Self {
        if let Ok(value) = MetadataValue::try_from(value.to_string()) {
            self.metadata.insert(key, value);
        }
        self
    }

    /// Adds entries (rate-limit figures) without replacing those already set.
    pub fn merge_metadata(mut self, extra: &MetadataMap) -> Self {
        for kv in extra.iter() {
            if let tonic::metadata::KeyAndValueRef::Ascii(key, value) = kv
                && !self.metadata.contains_key(key)
            {
                self.metadata.insert(key.clone(), value.clone());
            }
        }
        self
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

impl From<ApiError> for Status {
    fn from(err: ApiError) -> Status {
        err.code.to_status(err.message, *err.metadata)
    }
}

impl From<sea_orm::DbErr> for ApiError {
    fn from(err: sea_orm::DbErr) -> Self {
        ApiError::internal("database access", err)
    }
}

impl From<object_store::Error> for ApiError {
    fn from(err: object_store::Error) -> Self {
        ApiError::internal("object store access", err)
    }
}
