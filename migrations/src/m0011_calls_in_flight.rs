//! Calls in flight, so that a call whose core replica dies is not left counted against its
//! key's daily calls: each admitted call is a row of `calls_in_flight` (written in the same
//! transaction as the count) until it ends, and each replica a row of `replicas` it refreshes
//! every few seconds. A replica silent for too long is dead: another one gives back the calls
//! it left and removes it. `idempotency_keys.replica` names the replica running a key's first
//! request, so that a retry after that replica's death runs again instead of waiting for the
//! key's running state to time out.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[derive(DeriveIden)]
enum Accounts {
    Table,
    Id,
}

#[derive(DeriveIden)]
enum Replicas {
    Table,
    Id,
    SeenAt,
}

#[derive(DeriveIden)]
enum IdempotencyKeys {
    Table,
    Replica,
}

#[derive(DeriveIden)]
enum CallsInFlight {
    Table,
    Id,
    Replica,
    AccountId,
    UsageDay,
    StartedAt,
}

const REPLICA_INDEX: &str = "idx_calls_in_flight_replica";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Replicas::Table)
                    .col(string(Replicas::Id).primary_key())
                    .col(timestamp_with_time_zone(Replicas::SeenAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(CallsInFlight::Table)
                    .col(
                        big_integer(CallsInFlight::Id)
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(string(CallsInFlight::Replica))
                    .col(big_integer(CallsInFlight::AccountId))
                    .col(big_integer(CallsInFlight::UsageDay))
                    .col(timestamp_with_time_zone(CallsInFlight::StartedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(CallsInFlight::Table, CallsInFlight::AccountId)
                            .to(Accounts::Table, Accounts::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name(REPLICA_INDEX)
                    .table(CallsInFlight::Table)
                    .col(CallsInFlight::Replica)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(IdempotencyKeys::Table)
                    .add_column(string_null(IdempotencyKeys::Replica))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(IdempotencyKeys::Table)
                    .drop_column(IdempotencyKeys::Replica)
                    .to_owned(),
            )
            .await?;
        manager
            .drop_table(Table::drop().table(CallsInFlight::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(Replicas::Table).to_owned())
            .await
    }
}
