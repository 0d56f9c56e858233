//! Database connection (SQLite in WAL mode by default, PostgreSQL at scale) and the entities.

pub mod account;
pub mod api_key;
pub mod file;
pub mod idempotency_key;
pub mod login_failure;
pub mod resumable_upload;
pub mod session;

use std::time::Duration;

use quire_migrations::{Migrator, MigratorTrait};
use sea_orm::{ConnectOptions, Database, DatabaseConnection};

/// Connects and brings the schema up to date.
pub async fn connect(url: &str) -> anyhow::Result<DatabaseConnection> {
    let mut options = ConnectOptions::new(url.to_owned());
    options
        .sqlx_logging(false)
        .connect_timeout(Duration::from_secs(10))
        .acquire_timeout(Duration::from_secs(30));
    if url.starts_with("sqlite:") {
        // WAL lets readers run beside the single writer; the busy timeout makes concurrent
        // writers queue instead of failing with SQLITE_BUSY.
        options.max_connections(8).map_sqlx_sqlite_opts(|opts| {
            opts.journal_mode(sea_orm::sqlx::sqlite::SqliteJournalMode::Wal)
                .synchronous(sea_orm::sqlx::sqlite::SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(30))
                .foreign_keys(true)
        });
    } else {
        options.max_connections(32);
    }
    let db = Database::connect(options).await?;
    Migrator::up(&db, None).await?;
    Ok(db)
}
