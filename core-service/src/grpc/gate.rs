//! The admission check every RPC starts with: authenticate, authorize, count the call.

use chrono::Utc;
use tonic::metadata::MetadataMap;

use crate::{
    Core,
    auth::{self, Caller, ScopeRule},
    error::{ApiError, ApiResult},
    idempotency::Idempotency,
    quota::{self, RateLimit, Ticket},
};

/// An admitted call: who it is, the rate-limit figures to send back, and while it runs, the
/// ticket of its count (none for a repeat answered before, which is not counted).
pub struct Admitted {
    pub caller: Caller,
    pub rate_limit: Option<RateLimit>,
    ticket: Option<Ticket>,
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

    /// Ends the call with `err`, raised after admission: a failure on the server's side is
    /// given back first (the figures sent then count it as not made); then the rate-limit
    /// figures are added to the error.
    pub async fn fail(mut self, err: ApiError) -> ApiError {
        if let Some(ticket) = self.ticket.take()
            && ticket.fail(err.code).await
            && let Some(limit) = &mut self.rate_limit
        {
            limit.remaining = (limit.remaining + 1).min(limit.limit);
        }
        err.merge_metadata(&self.metadata())
    }

    /// Keeps the call's ticket until `stream`, its answer, has been sent or dropped: a replica
    /// that dies while sending it leaves the call to be given back.
    pub fn until_sent<S: Send + 'static>(
        &mut self,
        stream: futures::stream::BoxStream<'static, S>,
    ) -> futures::stream::BoxStream<'static, S> {
        use futures::StreamExt;
        let ticket = self.ticket.take();
        stream
            .map(move |item| {
                let _running = &ticket;
                item
            })
            .boxed()
    }
}

/// Authenticates and authorizes, then counts the call against the daily quota.
pub async fn admit(core: &Core, metadata: &MetadataMap, rule: ScopeRule) -> ApiResult<Admitted> {
    let caller = authorize(core, metadata, rule).await?;
    charge(core, caller).await
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
    let admitted = match idempotency.is_repeat() {
        true => Admitted {
            caller,
            rate_limit: None,
            ticket: None,
        },
        false => charge(core, caller).await?,
    };
    Ok((admitted, idempotency))
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
    charge(core, caller).await
}

async fn charge(core: &Core, caller: Caller) -> ApiResult<Admitted> {
    let cap = caller.plan.daily_calls(&core.config);
    let quota::Charged { rate_limit, ticket } =
        quota::charge_call(&core.db, &core.replica, caller.account_id, cap, Utc::now()).await?;
    Ok(Admitted {
        caller,
        rate_limit,
        ticket: Some(ticket),
    })
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
