//! Names of the gRPC metadata keys that carry figures the edge copies into HTTP headers.

pub const AUTHORIZATION: &str = "authorization";
pub const REQUEST_ID: &str = "x-request-id";
/// The secret an edge proves itself with (QUIRE_EDGE_SECRET): only a caller that sends it (or
/// the edge in the core's own process) may state the client address that per-address limits
/// count.
pub const EDGE_SECRET: &str = "x-quire-edge-secret";
/// draft-ietf-httpapi-idempotency-key-header: a retry with the same key gets the first answer.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
/// Set on an answer that repeats the first answer to its `Idempotency-Key`.
pub const IDEMPOTENT_REPLAYED: &str = "idempotent-replayed";
pub const RATELIMIT_LIMIT: &str = "x-ratelimit-limit";
pub const RATELIMIT_REMAINING: &str = "x-ratelimit-remaining";
pub const RATELIMIT_RESET: &str = "x-ratelimit-reset";
/// The IETF fields (draft-ietf-httpapi-ratelimit-headers-09): the policy (`"daily";q=100;w=86400`)
/// and what is left of it (`"daily";r=42;t=3600`).
pub const RATELIMIT_POLICY: &str = "ratelimit-policy";
pub const RATELIMIT: &str = "ratelimit";
pub const RETRY_AFTER: &str = "retry-after";
/// Sent with `share-secret-wrong`: wrong proofs an encrypted share still allows.
pub const SHARE_TRIES_LEFT: &str = "x-share-tries-left";
/// Sent with `range-not-satisfiable`: `bytes */<size>`.
pub const CONTENT_RANGE: &str = "content-range";
pub const ORIGINAL_SIZE: &str = "x-original-size";
pub const COMPRESSED_SIZE: &str = "x-compressed-size";
pub const SAVINGS_PERCENT: &str = "x-savings-percent";
pub const PAGE_COUNT: &str = "x-page-count";
pub const DPI: &str = "x-dpi";
