//! Quire's database schema as sea-orm migrations, built with `SchemaManager` so the same code
//! runs on SQLite and PostgreSQL.

pub use sea_orm_migration::prelude::*;

mod m0001_accounts_keys_files;
mod m0002_web_sessions;
mod m0003_file_digest;
mod m0004_idempotency_keys;
mod m0005_resumable_uploads;
mod m0006_session_idle_timeout;
mod m0007_storage_reservations;
mod m0008_file_max_downloads;
mod m0009_encrypted_shares;
mod m0010_file_blob_parts;
mod m0011_calls_in_flight;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m0001_accounts_keys_files::Migration),
            Box::new(m0002_web_sessions::Migration),
            Box::new(m0003_file_digest::Migration),
            Box::new(m0004_idempotency_keys::Migration),
            Box::new(m0005_resumable_uploads::Migration),
            Box::new(m0006_session_idle_timeout::Migration),
            Box::new(m0007_storage_reservations::Migration),
            Box::new(m0008_file_max_downloads::Migration),
            Box::new(m0009_encrypted_shares::Migration),
            Box::new(m0010_file_blob_parts::Migration),
            Box::new(m0011_calls_in_flight::Migration),
        ]
    }
}
