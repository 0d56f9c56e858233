//! Database connection (SQLite in WAL mode by default, PostgreSQL at scale) and the entities.

pub mod account;
pub mod api_key;
pub mod call_in_flight;
pub mod file;
pub mod idempotency_key;
pub mod login_failure;
pub mod replica;
pub mod resumable_upload;
pub mod session;

use std::time::Duration;

use quire_migrations::{Migrator, MigratorTrait};
use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection};

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
    if url.starts_with("sqlite:") {
        // One process owns a SQLite file: nothing to race with.
        Migrator::up(&db, None).await?;
    } else {
        migrate_under_lock(url, &db).await?;
    }
    Ok(db)
}

/// The advisory lock's key ("quire" in ASCII), the same in every replica.
const MIGRATION_LOCK: i64 = 0x71_7569_7265;

/// Replicas starting together on one PostgreSQL database take turns: the first brings the
/// schema up to date while the others wait, then find nothing left to do. Without the lock, two
/// would run the same migration and one would fail to start. The lock lives on a connection of
/// its own, so it is released however this ends, even if the process dies.
async fn migrate_under_lock(url: &str, db: &DatabaseConnection) -> anyhow::Result<()> {
    let mut options = ConnectOptions::new(url.to_owned());
    options
        .sqlx_logging(false)
        .max_connections(1)
        .connect_timeout(Duration::from_secs(10));
    let lock = Database::connect(options).await?;
    lock.execute_unprepared(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK})"))
        .await?;
    let migrated = Migrator::up(db, None).await;
    // Closing the lock's only connection ends its session, which releases the lock.
    lock.close().await?;
    Ok(migrated?)
}
