//! End-to-end encrypted shares (issue 37) are files whose bytes the server cannot read:
//! `files.share_seal` holds what the sender's page handed over besides the ciphertext (the
//! proof key, whether a password is mixed in, the sealed metadata; null for a plain file),
//! `share_wrong_tries` counts wrong proofs (the share is deleted after a few), and
//! `share_nonce`/`share_nonce_expires_at` the one challenge a recipient may answer.
//! `resumable_uploads.share_seal` carries the seal from a tus upload's creation to its file.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Files {
    Table,
    ShareSeal,
    ShareWrongTries,
    ShareNonce,
    ShareNonceExpiresAt,
}

#[derive(DeriveIden)]
enum ResumableUploads {
    Table,
    ShareSeal,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite adds a single column per ALTER TABLE.
        let files = [
            blob_null(Files::ShareSeal),
            integer(Files::ShareWrongTries).default(0).to_owned(),
            blob_null(Files::ShareNonce),
            timestamp_with_time_zone_null(Files::ShareNonceExpiresAt),
        ];
        for mut column in files {
            manager
                .alter_table(
                    Table::alter()
                        .table(Files::Table)
                        .add_column(&mut column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .alter_table(
                Table::alter()
                    .table(ResumableUploads::Table)
                    .add_column(blob_null(ResumableUploads::ShareSeal))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(ResumableUploads::Table)
                    .drop_column(ResumableUploads::ShareSeal)
                    .to_owned(),
            )
            .await?;
        for column in [
            Files::ShareNonceExpiresAt,
            Files::ShareNonce,
            Files::ShareWrongTries,
            Files::ShareSeal,
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(Files::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
