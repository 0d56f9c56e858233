//! `files.max_downloads` (and `resumable_uploads.max_downloads`, for the file a resumable
//! upload becomes): how many full downloads a share link allows (null: no limit). A
//! link used up, or expired, keeps its row in state `gone` (its blob deleted, its storage
//! released) so that it answers 410 Gone rather than 404 until the sweeper forgets it.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Files {
    Table,
    MaxDownloads,
}

/// A resumable upload carries the limit of the file it becomes.
#[derive(DeriveIden)]
enum ResumableUploads {
    Table,
    MaxDownloads,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Files::Table)
                    .add_column(big_integer_null(Files::MaxDownloads))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(ResumableUploads::Table)
                    .add_column(big_integer_null(ResumableUploads::MaxDownloads))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Files::Table)
                    .drop_column(Files::MaxDownloads)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(ResumableUploads::Table)
                    .drop_column(ResumableUploads::MaxDownloads)
                    .to_owned(),
            )
            .await
    }
}
