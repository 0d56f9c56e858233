//! Names of the gRPC metadata keys that carry figures the edge copies into HTTP headers.

pub const AUTHORIZATION: &str = "authorization";
pub const REQUEST_ID: &str = "x-request-id";
pub const RATELIMIT_LIMIT: &str = "x-ratelimit-limit";
pub const RATELIMIT_REMAINING: &str = "x-ratelimit-remaining";
pub const RATELIMIT_RESET: &str = "x-ratelimit-reset";
pub const RETRY_AFTER: &str = "retry-after";
/// Sent with `range-not-satisfiable`: `bytes */<size>`.
pub const CONTENT_RANGE: &str = "content-range";
pub const ORIGINAL_SIZE: &str = "x-original-size";
pub const COMPRESSED_SIZE: &str = "x-compressed-size";
pub const SAVINGS_PERCENT: &str = "x-savings-percent";
pub const PAGE_COUNT: &str = "x-page-count";
pub const DPI: &str = "x-dpi";
