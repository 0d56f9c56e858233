//! `resumable_uploads`: tus uploads in progress. A row holds the length announced, the offset
//! received (the bytes are blobs `resumable/<token>/<part>`, one per append), which append holds
//! the upload now, and, once the last byte arrived and passed the checks, the stored file's
//! token.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Accounts {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum ResumableUploads {
    Table,
    Id,
    Token,
    AccountId,
    Filename,
    ExpiresIn,
    Length,
    Received,
    Parts,
    State,
    AppendingSince,
    FileToken,
    CreatedAt,
    ExpiresAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ResumableUploads::Table)
                    .col(
                        big_integer(ResumableUploads::Id)
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(string_uniq(ResumableUploads::Token))
                    .col(big_integer(ResumableUploads::AccountId))
                    .col(string(ResumableUploads::Filename))
                    .col(big_integer_null(ResumableUploads::ExpiresIn))
                    .col(big_integer(ResumableUploads::Length))
                    .col(big_integer(ResumableUploads::Received).default(0))
                    .col(integer(ResumableUploads::Parts).default(0))
                    .col(string(ResumableUploads::State))
                    .col(timestamp_with_time_zone_null(
                        ResumableUploads::AppendingSince,
                    ))
                    .col(string_null(ResumableUploads::FileToken))
                    .col(timestamp_with_time_zone(ResumableUploads::CreatedAt))
                    .col(timestamp_with_time_zone(ResumableUploads::ExpiresAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(ResumableUploads::Table, ResumableUploads::AccountId)
                            .to(Accounts::Table, Accounts::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_resumable_uploads_expires")
                    .table(ResumableUploads::Table)
                    .col(ResumableUploads::ExpiresAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(ResumableUploads::Table).to_owned())
            .await
    }
}
