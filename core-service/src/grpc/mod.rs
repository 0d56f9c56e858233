//! The gRPC transport: one file per service, thin handlers over the domain modules.

mod account_service;
mod conn;
mod file_service;
mod gate;
mod health;
mod in_process;
mod peer;
mod process_service;
mod reflection;
mod resumable_service;
mod server;
mod share_service;
mod support_service;
mod tool_service;

pub use conn::{SocketFile, bind_socket};
pub use in_process::InProcess;
pub use peer::{EdgeSecret, Peer};
pub use server::Services;
