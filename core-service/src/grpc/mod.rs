//! The gRPC transport: one file per service, thin handlers over the domain modules.

mod account_service;
mod conn;
mod file_service;
mod gate;
mod health;
mod process_service;
mod server;
mod support_service;

pub use conn::bind_socket;
pub use server::{serve, serve_on, serve_with_shutdown};
