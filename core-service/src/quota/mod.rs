//! Plans and what they allow: daily calls, storage and open resumable uploads, all counted
//! atomically in the database.

pub mod daily;
pub mod in_flight;
pub mod replicas;
pub mod storage;

use crate::{
    config::CoreConfig,
    error::{ApiError, ApiResult},
};
pub use daily::{Charged, RateLimit, charge_call};
pub use in_flight::Ticket;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    Free,
    Pro,
}

impl Plan {
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Pro => "pro",
        }
    }

    pub fn parse(name: &str) -> ApiResult<Plan> {
        match name {
            "free" => Ok(Plan::Free),
            "pro" => Ok(Plan::Pro),
            other => Err(ApiError::invalid(format!(
                "unknown plan {other:?}: plans are free and pro"
            ))),
        }
    }

    /// Calls per UTC day, `None` for no cap.
    pub fn daily_calls(self, config: &CoreConfig) -> Option<u64> {
        match self {
            Plan::Free => Some(config.free_daily_calls),
            Plan::Pro => None,
        }
    }

    pub fn storage_quota(self, config: &CoreConfig) -> u64 {
        match self {
            Plan::Free => config.free_storage_quota,
            Plan::Pro => config.pro_storage_quota,
        }
    }

    /// Unfinished resumable uploads an account may have at once.
    pub fn open_uploads(self, config: &CoreConfig) -> u64 {
        match self {
            Plan::Free => config.free_open_uploads,
            Plan::Pro => config.pro_open_uploads,
        }
    }
}
