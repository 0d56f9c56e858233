//! A file made by a resumable upload keeps the upload's parts where they were written instead
//! of a copy of them in one blob: `files.blob_parts` lists their sizes (comma-separated, in
//! order); null for a file kept as one blob at `blob_key`, as every file before.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Files {
    Table,
    BlobParts,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Files::Table)
                    .add_column(text_null(Files::BlobParts))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Files::Table)
                    .drop_column(Files::BlobParts)
                    .to_owned(),
            )
            .await
    }
}
