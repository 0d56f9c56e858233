//! Web accounts: a password per account (none for accounts the admin CLI created, which cannot
//! log in to the dashboard until one is set), browser sessions (hashed tokens with an expiry)
//! and failed logins, which limit guessing per account and per client address.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Accounts {
    Table,
    Id,
    PasswordHash,
}

#[derive(DeriveIden)]
enum Sessions {
    Table,
    Id,
    AccountId,
    TokenHash,
    CsrfToken,
    CreatedAt,
    ExpiresAt,
}

#[derive(DeriveIden)]
enum LoginFailures {
    Table,
    Id,
    Subject,
    FailedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(Accounts::Table)
                    .add_column(text_null(Accounts::PasswordHash))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Sessions::Table)
                    .col(big_integer(Sessions::Id).auto_increment().primary_key())
                    .col(big_integer(Sessions::AccountId))
                    .col(string_uniq(Sessions::TokenHash))
                    .col(string(Sessions::CsrfToken))
                    .col(timestamp_with_time_zone(Sessions::CreatedAt))
                    .col(timestamp_with_time_zone(Sessions::ExpiresAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Sessions::Table, Sessions::AccountId)
                            .to(Accounts::Table, Accounts::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_sessions_account")
                    .table(Sessions::Table)
                    .col(Sessions::AccountId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(LoginFailures::Table)
                    .col(
                        big_integer(LoginFailures::Id)
                            .auto_increment()
                            .primary_key(),
                    )
                    // `account:<email>` or `address:<ip>`.
                    .col(string(LoginFailures::Subject))
                    .col(timestamp_with_time_zone(LoginFailures::FailedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_login_failures_subject")
                    .table(LoginFailures::Table)
                    .col(LoginFailures::Subject)
                    .col(LoginFailures::FailedAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(LoginFailures::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Sessions::Table).to_owned())
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(Accounts::Table)
                    .drop_column(Accounts::PasswordHash)
                    .to_owned(),
            )
            .await
    }
}
