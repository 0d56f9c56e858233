//! `quire admin`: accounts and API keys, straight on the database a running server uses.

use clap::Subcommand;
use quire_core::{CoreConfig, auth::accounts, db, quota::Plan};
use serde_json::json;

#[derive(Subcommand)]
pub enum AdminCommand {
    /// Accounts and their plans.
    Account {
        #[command(subcommand)]
        command: AccountCommand,
    },
    /// API keys.
    Key {
        #[command(subcommand)]
        command: KeyCommand,
    },
}

#[derive(Subcommand)]
pub enum AccountCommand {
    /// Creates an account.
    Create {
        #[arg(long)]
        email: String,
        /// free or pro.
        #[arg(long, default_value = "free")]
        plan: String,
    },
    /// Moves an account to another plan.
    SetPlan {
        #[arg(long)]
        email: String,
        #[arg(long)]
        plan: String,
    },
}

#[derive(Subcommand)]
pub enum KeyCommand {
    /// Creates a key and prints it once; only its hash is stored.
    Create {
        #[arg(long)]
        email: String,
        /// Comma-separated: upload, read, process.
        #[arg(long)]
        scopes: String,
        #[arg(long)]
        name: String,
        /// Print one JSON line {"id", "key", "scopes"}.
        #[arg(long)]
        json: bool,
    },
    /// Lists an account's keys (never the keys themselves).
    List {
        #[arg(long)]
        email: String,
        #[arg(long)]
        json: bool,
    },
    /// Revokes a key: its next call gets 401.
    Revoke { id: i64 },
}

pub async fn run(command: AdminCommand, config: &CoreConfig) -> anyhow::Result<()> {
    std::fs::create_dir_all(&config.data_dir)?;
    let db = db::connect(&config.database_url()).await?;
    match command {
        AdminCommand::Account { command } => match command {
            AccountCommand::Create { email, plan } => {
                let account = accounts::create_account(&db, &email, Plan::parse(&plan)?).await?;
                println!(
                    "created account {} ({}, plan {})",
                    account.id, account.email, account.plan
                );
            }
            AccountCommand::SetPlan { email, plan } => {
                let plan = Plan::parse(&plan)?;
                accounts::set_plan(&db, &email, plan).await?;
                println!("{email} is now on plan {}", plan.as_str());
            }
        },
        AdminCommand::Key { command } => match command {
            KeyCommand::Create {
                email,
                scopes,
                name,
                json,
            } => {
                let key = accounts::create_key(&db, &email, &name, &scopes).await?;
                let scopes: Vec<&str> = key.scopes.iter().map(|s| s.as_str()).collect();
                if json {
                    println!(
                        "{}",
                        json!({ "id": key.id, "key": key.key, "scopes": scopes })
                    );
                } else {
                    println!("{}", key.key);
                    eprintln!(
                        "key {} with scopes {}: copy it now, it is not shown again",
                        key.id,
                        scopes.join(",")
                    );
                }
            }
            KeyCommand::List { email, json } => {
                let keys = accounts::list_keys(&db, &email).await?;
                for key in keys {
                    let revoked = key.revoked_at.map(|t| t.to_rfc3339());
                    let last_used = key.last_used_at.map(|t| t.to_rfc3339());
                    if json {
                        println!(
                            "{}",
                            json!({
                                "id": key.id, "name": key.name, "prefix": key.display_prefix,
                                "scopes": key.scopes.split(',').collect::<Vec<_>>(),
                                "createdAt": key.created_at.to_rfc3339(), "lastUsedAt": last_used,
                                "revokedAt": revoked,
                            })
                        );
                    } else {
                        println!(
                            "{}\t{}\t{}…\t{}\tcreated {}\tlast used {}\t{}",
                            key.id,
                            key.name,
                            key.display_prefix,
                            key.scopes,
                            key.created_at.to_rfc3339(),
                            last_used.as_deref().unwrap_or("never"),
                            revoked.map_or("active".to_owned(), |t| format!("revoked {t}")),
                        );
                    }
                }
            }
            KeyCommand::Revoke { id } => {
                let at = accounts::revoke_key(&db, id).await?;
                println!("key {id} revoked at {}", at.to_rfc3339());
            }
        },
    }
    Ok(())
}
