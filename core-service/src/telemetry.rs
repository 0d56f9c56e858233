//! Logging setup shared by the binaries: `QUIRE_LOG` filter, `QUIRE_LOG_FORMAT=json` for
//! machine-read logs.

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
