//! Transport figures both ends of quire.v1 share, chosen by the upload benchmark: the default
//! HTTP/2 windows were the slowest setting measured; 256 KiB chunks with 8 MiB stream and
//! 16 MiB connection windows were the best.

/// Bytes per file chunk message, both directions.
pub const CHUNK_SIZE: usize = 256 * 1024;
/// HTTP/2 stream receive window.
pub const STREAM_WINDOW: u32 = 8 * 1024 * 1024;
/// HTTP/2 connection receive window.
pub const CONNECTION_WINDOW: u32 = 16 * 1024 * 1024;
/// Default largest support ticket, in bytes (QUIRE_MAX_TICKET_SIZE): the edge's JSON body limit
/// and the core's limit on log plus context.
pub const DEFAULT_MAX_TICKET_SIZE: usize = 10 * 1024 * 1024;
