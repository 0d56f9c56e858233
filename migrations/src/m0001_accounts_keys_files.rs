//! Accounts with their plan and usage counters, API keys (hashed), and stored files.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Accounts {
    Table,
    Id,
    Email,
    Plan,
    UsageDay,
    CallsToday,
    CallsTotal,
    StorageUsed,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ApiKeys {
    Table,
    Id,
    AccountId,
    Name,
    DisplayPrefix,
    KeyHash,
    Scopes,
    CreatedAt,
    LastUsedAt,
    RevokedAt,
}

#[derive(DeriveIden)]
enum Files {
    Table,
    Id,
    Token,
    AccountId,
    KeyId,
    Filename,
    MimeType,
    Size,
    Sha256,
    BlobKey,
    State,
    CreatedAt,
    ExpiresAt,
    Downloads,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Accounts::Table)
                    .col(big_integer(Accounts::Id).auto_increment().primary_key())
                    .col(string_uniq(Accounts::Email))
                    .col(string(Accounts::Plan))
                    // Day number (days since 1970-01-01, UTC) that calls_today counts for.
                    .col(big_integer(Accounts::UsageDay).default(0))
                    .col(big_integer(Accounts::CallsToday).default(0))
                    .col(big_integer(Accounts::CallsTotal).default(0))
                    .col(big_integer(Accounts::StorageUsed).default(0))
                    .col(timestamp_with_time_zone(Accounts::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ApiKeys::Table)
                    .col(big_integer(ApiKeys::Id).auto_increment().primary_key())
                    .col(big_integer(ApiKeys::AccountId))
                    .col(string(ApiKeys::Name))
                    .col(string(ApiKeys::DisplayPrefix))
                    .col(string_uniq(ApiKeys::KeyHash))
                    .col(string(ApiKeys::Scopes))
                    .col(timestamp_with_time_zone(ApiKeys::CreatedAt))
                    .col(timestamp_with_time_zone_null(ApiKeys::LastUsedAt))
                    .col(timestamp_with_time_zone_null(ApiKeys::RevokedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(ApiKeys::Table, ApiKeys::AccountId)
                            .to(Accounts::Table, Accounts::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_api_keys_account")
                    .table(ApiKeys::Table)
                    .col(ApiKeys::AccountId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Files::Table)
                    .col(big_integer(Files::Id).auto_increment().primary_key())
                    .col(string_uniq(Files::Token))
                    .col(big_integer(Files::AccountId))
                    .col(big_integer_null(Files::KeyId))
                    .col(string(Files::Filename))
                    .col(string(Files::MimeType))
                    .col(big_integer(Files::Size).default(0))
                    .col(string(Files::Sha256).default(""))
                    .col(string(Files::BlobKey))
                    // pending: bytes streaming, nothing charged; committing: storage reserved,
                    // blob being committed; ready: visible. The start-up sweeper removes
                    // pending and committing rows left by a crash.
                    .col(string(Files::State))
                    .col(timestamp_with_time_zone(Files::CreatedAt))
                    .col(timestamp_with_time_zone_null(Files::ExpiresAt))
                    .col(big_integer(Files::Downloads).default(0))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Files::Table, Files::AccountId)
                            .to(Accounts::Table, Accounts::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        for (name, col) in [
            ("idx_files_account", Files::AccountId),
            ("idx_files_expires", Files::ExpiresAt),
            ("idx_files_state", Files::State),
        ] {
            manager
                .create_index(
                    Index::create()
                        .name(name)
                        .table(Files::Table)
                        .col(col)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Files::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(ApiKeys::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Accounts::Table).to_owned())
            .await
    }
}
