//! What an account holds beyond its files counts in its storage quota: the declared length of
//! each unfinished resumable upload (derived from `resumable_uploads`, so nothing can drift)
//! and the size of each kept idempotent file answer (`idempotency_keys.body_size`). An index
//! on each table's account makes the per-account sums a lookup.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum IdempotencyKeys {
    Table,
    BodySize,
}

#[derive(DeriveIden)]
enum ResumableUploads {
    Table,
    AccountId,
    State,
}

const UPLOADS_INDEX: &str = "idx_resumable_uploads_account_state";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(IdempotencyKeys::Table)
                    .add_column(big_integer(IdempotencyKeys::BodySize).default(0))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name(UPLOADS_INDEX)
                    .table(ResumableUploads::Table)
                    .col(ResumableUploads::AccountId)
                    .col(ResumableUploads::State)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name(UPLOADS_INDEX)
                    .table(ResumableUploads::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(IdempotencyKeys::Table)
                    .drop_column(IdempotencyKeys::BodySize)
                    .to_owned(),
            )
            .await
    }
}
