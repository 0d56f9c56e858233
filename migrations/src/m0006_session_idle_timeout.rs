//! Sessions end after an idle time as well as at their absolute expiry: `last_used_at` is when
//! the session was last seen (recorded at most about once a minute), `idle_expires_at` when it
//! ends unless used again. Sessions opened before had neither, so they are ended: everyone logs
//! in once more, and no session lives on without an idle limit.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Sessions {
    Table,
    LastUsedAt,
    IdleExpiresAt,
}

/// Never used: the sessions are deleted first, and every new one sets both columns. SQLite
/// cannot add a NOT NULL column without a default.
const EPOCH: &str = "1970-01-01 00:00:00+00:00";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .exec_stmt(Query::delete().from_table(Sessions::Table).to_owned())
            .await?;
        for column in [Sessions::LastUsedAt, Sessions::IdleExpiresAt] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Sessions::Table)
                        .add_column(timestamp_with_time_zone(column).default(EPOCH))
                        .to_owned(),
                )
                .await?;
        }
        manager
            .create_index(
                Index::create()
                    .name("idx_sessions_idle_expires_at")
                    .table(Sessions::Table)
                    .col(Sessions::IdleExpiresAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("idx_sessions_idle_expires_at")
                    .table(Sessions::Table)
                    .to_owned(),
            )
            .await?;
        for column in [Sessions::IdleExpiresAt, Sessions::LastUsedAt] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Sessions::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
