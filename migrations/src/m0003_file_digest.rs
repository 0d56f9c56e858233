//! `files.sha256` becomes `files.digest`, "<algorithm>:<lowercase hex>": new uploads get a
//! BLAKE3 (a SHA-256 of every upload cost a core-second per GiB), and files stored before keep
//! their SHA-256 as "sha256:<hex>", so every ETag already handed out stays valid.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Files {
    Table,
    Sha256,
    Digest,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Files::Table)
                    .add_column(string(Files::Digest).default(""))
                    .to_owned(),
            )
            .await?;
        manager
            .exec_stmt(
                Query::update()
                    .table(Files::Table)
                    // `||` concatenates on both SQLite and PostgreSQL.
                    .value(Files::Digest, Expr::cust(r#"'sha256:' || "sha256""#))
                    .and_where(Expr::col(Files::Sha256).ne(""))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Files::Table)
                    .drop_column(Files::Sha256)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Files::Table)
                    .add_column(string(Files::Sha256).default(""))
                    .to_owned(),
            )
            .await?;
        // BLAKE3 digests have no SHA-256 to go back to: those rows get an empty one, as
        // unfinished uploads had.
        manager
            .exec_stmt(
                Query::update()
                    .table(Files::Table)
                    .value(
                        Files::Sha256,
                        Func::cust("SUBSTR").arg(Expr::col(Files::Digest)).arg(8),
                    )
                    .and_where(Expr::col(Files::Digest).like("sha256:%"))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Files::Table)
                    .drop_column(Files::Digest)
                    .to_owned(),
            )
            .await
    }
}
