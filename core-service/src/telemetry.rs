//! Logging setup shared by the binaries: `QUIRE_LOG` filter, `QUIRE_LOG_FORMAT=json` for
//! machine-read logs; the database pool's gauges for the metrics page.

use tracing_subscriber::{EnvFilter, fmt};

pub fn init() {
    let filter = EnvFilter::try_from_env("QUIRE_LOG")
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,sea_orm=warn,h2=warn,tower=warn"));
    let json = std::env::var("QUIRE_LOG_FORMAT").is_ok_and(|f| f == "json");
    let builder = fmt().with_env_filter(filter).with_writer(std::io::stderr);
    // A second init (tests start several stacks in one process) is harmless.
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

/// The database pool's connections, open and idle (`quire_db_pool_connections{state}`), set on
/// each health round (every 5 s), so a scrape sees them at most that old.
pub fn pool_gauges(db: &sea_orm::DatabaseConnection) {
    let (open, idle) = match db.get_database_backend() {
        sea_orm::DbBackend::Sqlite => {
            let pool = db.get_sqlite_connection_pool();
            (pool.size(), pool.num_idle())
        }
        sea_orm::DbBackend::Postgres => {
            let pool = db.get_postgres_connection_pool();
            (pool.size(), pool.num_idle())
        }
        _ => return,
    };
    metrics::gauge!("quire_db_pool_connections", "state" => "open").set(f64::from(open));
    metrics::gauge!("quire_db_pool_connections", "state" => "idle").set(idle as f64);
}
