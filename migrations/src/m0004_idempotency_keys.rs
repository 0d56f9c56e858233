//! `idempotency_keys`: the first answer to each `Idempotency-Key` an account sent
//! (draft-ietf-httpapi-idempotency-key-header), so a retry gets it again instead of a second
//! upload or charge. A row is `running` while its first request runs, then `done` with the
//! request's fingerprint, the answer (message and metadata) and, for file answers, the blob
//! that holds the file; it goes away at `expires_at`.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Accounts {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum IdempotencyKeys {
    Table,
    Id,
    AccountId,
    Key,
    State,
    Fingerprint,
    Response,
    Metadata,
    BodyKey,
    CreatedAt,
    ExpiresAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(IdempotencyKeys::Table)
                    .col(
                        big_integer(IdempotencyKeys::Id)
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(big_integer(IdempotencyKeys::AccountId))
                    .col(string(IdempotencyKeys::Key))
                    .col(string(IdempotencyKeys::State))
                    .col(string(IdempotencyKeys::Fingerprint).default(""))
                    .col(binary_null(IdempotencyKeys::Response))
                    .col(text(IdempotencyKeys::Metadata).default(""))
                    .col(string_null(IdempotencyKeys::BodyKey))
                    .col(timestamp_with_time_zone(IdempotencyKeys::CreatedAt))
                    .col(timestamp_with_time_zone(IdempotencyKeys::ExpiresAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(IdempotencyKeys::Table, IdempotencyKeys::AccountId)
                            .to(Accounts::Table, Accounts::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        // One row per key and account: the insert that loses a race is how a concurrent retry
        // learns the first request is still running.
        manager
            .create_index(
                Index::create()
                    .name("idx_idempotency_keys_account_key")
                    .table(IdempotencyKeys::Table)
                    .col(IdempotencyKeys::AccountId)
                    .col(IdempotencyKeys::Key)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_idempotency_keys_expires")
                    .table(IdempotencyKeys::Table)
                    .col(IdempotencyKeys::ExpiresAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(IdempotencyKeys::Table).to_owned())
            .await
    }
}
