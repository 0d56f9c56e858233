//! quire.v1 protobuf types and gRPC stubs, plus the error-code table that core and edge share.
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod error_code;
pub mod metadata;
#[cfg(feature = "metrics-page")]
pub mod metrics_page;
pub mod shutdown;
pub mod transport;

pub use error_code::ErrorCode;

/// Generated code for package `quire.v1`.
pub mod v1 {
    #![allow(clippy::all, clippy::pedantic, missing_docs)]
    tonic::include_proto!("quire.v1");
}

/// Encoded `FileDescriptorSet` of quire.v1, served by gRPC reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("quire_descriptor");

impl v1::CompressionQuality {
    /// The REST names of the presets, in the order they are documented.
    pub const NAMES: [&'static str; 4] = ["screen", "ebook", "printer", "prepress"];

    /// Parses a REST `quality` value; `None` for anything but the four names.
    pub fn from_rest_name(name: &str) -> Option<Self> {
        match name {
            "screen" => Some(Self::Screen),
            "ebook" => Some(Self::Ebook),
            "printer" => Some(Self::Printer),
            "prepress" => Some(Self::Prepress),
            _ => None,
        }
    }
}
