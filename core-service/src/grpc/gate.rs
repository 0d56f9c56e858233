//! The admission check every RPC starts with: authenticate, authorize, count the call.

use chrono::Utc;
use tonic::metadata::MetadataMap;

use crate::{
    Core,
    auth::{self, Caller, ScopeRule},
    error::{ApiError, ApiResult},
    idempotency::Idempotency,
    quota::{self, RateLimit},
};

/// An admitted call: who it is, and the rate-limit figures to send back.
pub struct Admitted {
    pub caller: Caller,
    pub rate_limit: Option<RateLimit>,
}

impl Admitted {
    /// Response metadata for this call (rate-limit figures on the Free plan).
    pub fn metadata(&self) -> MetadataMap {
        let mut map = MetadataMap::new();
        if let Some(limit) = &self.rate_limit {
            limit.write_to(&mut map);
        }
        map
    }

    /// Adds this call's rate-limit figures to an error raised after admission.
    pub fn annotate(&self, err: ApiError) -> ApiError {
        err.merge_metadata(&self.metadata())
    }
}

/// Authenticates and authorizes, then counts the call against the daily quota.
pub async fn admit(core: &Core, metadata: &MetadataMap, rule: ScopeRule) -> ApiResult<Admitted> {
    let caller = authorize(core, metadata, rule).await?;
    let rate_limit = charge(core, &caller).await?;
    Ok(Admitted { caller, rate_limit })
}

/// As [`admit`], for the calls that take an `Idempotency-Key`: the key is claimed before the
/// call is counted, and a repeat of a request answered before is not counted again.
pub async fn admit_idempotent(
    core: &Core,
    metadata: &MetadataMap,
    rule: ScopeRule,
) -> ApiResult<(Admitted, Idempotency)> {
    let caller = authorize(core, metadata, rule).await?;
    let idempotency = Idempotency::claim(core, caller.account_id, metadata).await?;
    let rate_limit = match idempotency.is_repeat() {
        true => None,
        false => charge(core, &caller).await?,
    };
    Ok((Admitted { caller, rate_limit }, idempotency))
}

/// As [`admit`], for the web toolbox: only a browser session may call it. An API key, even a
/// valid one with every scope, is refused before the call is counted.
pub async fn admit_web_session(core: &Core, metadata: &MetadataMap) -> ApiResult<Admitted> {
    let caller = auth::authenticate(&core.db, metadata).await?;
    if caller.session_id.is_none() {
        return Err(ApiError::new(
            quire_proto::ErrorCode::WebOnlyTool,
            "the toolbox is part of the web interface: log in and use it at /tools; API keys \
             reach the /api endpoints only",
        ));
    }
    let rate_limit = charge(core, &caller).await?;
    Ok(Admitted { caller, rate_limit })
}

async fn charge(core: &Core, caller: &Caller) -> ApiResult<Option<RateLimit>> {
    let cap = caller.plan.daily_calls(&core.config);
    quota::charge_call(&core.db, caller.account_id, cap, Utc::now()).await
}

/// Authenticates and authorizes without counting (for calls that cannot be served yet).
pub async fn authorize(core: &Core, metadata: &MetadataMap, rule: ScopeRule) -> ApiResult<Caller> {
    let caller = auth::authenticate(&core.db, metadata).await?;
    auth::authorize(&caller, rule)?;
    Ok(caller)
}

/// Wraps a message with response metadata.
pub fn respond<T>(message: T, metadata: MetadataMap) -> tonic::Response<T> {
    let mut response = tonic::Response::new(message);
    *response.metadata_mut() = metadata;
    response
}
