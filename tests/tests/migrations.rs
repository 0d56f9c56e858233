//! Schema changes keep what is stored: files uploaded before m0003 keep their SHA-256, now as
//! the digest "sha256:<hex>", so the ETags already handed out stay valid; and the migration
//! goes back down without losing it.

use quire_e2e::{Db, both_databases, fresh_postgres_database};
use quire_migrations::{Migrator, MigratorTrait};
use sea_orm::{ConnectionTrait, Database, DatabaseConnection, Statement};

const SHA256: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

async fn database(db: Db, dir: &std::path::Path) -> DatabaseConnection {
    let url = match db {
        Db::Sqlite => format!("sqlite://{}/quire.db?mode=rwc", dir.display()),
        Db::Postgres => fresh_postgres_database().await,
    };
    Database::connect(url).await.unwrap()
}

/// `column` of every file, ordered by token.
async fn column(conn: &DatabaseConnection, column: &str) -> Vec<String> {
    let sql = format!("SELECT {column} FROM files ORDER BY token");
    let rows = conn
        .query_all_raw(Statement::from_string(conn.get_database_backend(), sql))
        .await
        .unwrap();
    rows.iter()
        .map(|row| row.try_get::<String>("", column).unwrap())
        .collect()
}

both_databases!(old_files_keep_their_sha256_as_the_digest, |db| {
    let dir = tempfile::tempdir().unwrap();
    let conn = database(db, dir.path()).await;
    Migrator::up(&conn, Some(2)).await.unwrap();
    conn.execute_unprepared(
        "INSERT INTO accounts (email, plan, created_at) VALUES ('old@example.com', 'free', '2026-01-01T00:00:00Z')",
    )
    .await
    .unwrap();
    // A committed file, and an upload a crash left unfinished (no hash yet).
    for (token, sha256, state) in [("a-ready", SHA256, "ready"), ("b-pending", "", "pending")] {
        conn.execute_unprepared(&format!(
            "INSERT INTO files (token, account_id, filename, mime_type, size, sha256, blob_key, state, created_at) \
             VALUES ('{token}', 1, 'old.txt', 'text/plain', 4, '{sha256}', 'files/{token}', '{state}', '2026-01-01T00:00:00Z')"
        ))
        .await
        .unwrap();
    }

    Migrator::up(&conn, None).await.unwrap();
    assert_eq!(
        column(&conn, "digest").await,
        [format!("sha256:{SHA256}"), String::new()]
    );

    // Down past every later migration (resumable uploads, idempotency keys, ...: nothing to
    // keep) and m0003, whatever their number.
    let after_m0002 = Migrator::migrations().len() as u32 - 2;
    Migrator::down(&conn, Some(after_m0002)).await.unwrap();
    assert_eq!(column(&conn, "sha256").await, [SHA256, ""]);
    let gone = conn
        .execute_unprepared("SELECT COUNT(*) FROM idempotency_keys")
        .await;
    assert!(gone.is_err(), "m0004 down drops its table");
});
