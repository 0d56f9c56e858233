//! quire.v1.SupportService: admit, validate, destructure, run the workflow off the runtime,
//! map the result.

use quire_proto::{
    ErrorCode,
    v1::{
        AnonymizationStats, AutoReplyRequest, AutoReplyResponse,
        support_service_server::SupportService,
    },
};
use tonic::{Request, Response, Status};

use super::gate::{self, respond};
use crate::{
    Core,
    auth::ScopeRule,
    error::{ApiError, ApiResult},
    idempotency::Fingerprint,
    support::{self, Locale, Reply, Ticket},
};

pub struct SupportApi {
    core: Core,
}

impl SupportApi {
    pub fn new(core: Core) -> Self {
        Self { core }
    }
}

#[tonic::async_trait]
impl SupportService for SupportApi {
    async fn auto_reply(
        &self,
        request: Request<AutoReplyRequest>,
    ) -> Result<Response<AutoReplyResponse>, Status> {
        let (admitted, mut idempotency) =
            gate::admit_idempotent(&self.core, request.metadata(), ScopeRule::ANY).await?;
        let mut fingerprint = Fingerprint::new("support");
        fingerprint.message(request.get_ref());
        let AutoReplyRequest {
            raw_log,
            ticket_context,
            locale,
        } = request.into_inner();
        let result = async {
            if let Some(answer) = idempotency.replay(&fingerprint)? {
                return Ok(answer);
            }
            let reply = response(self.run(raw_log, ticket_context, &locale).await?);
            let metadata = admitted.metadata();
            idempotency.keep(&fingerprint, &reply, &metadata).await?;
            Ok((reply, metadata))
        }
        .await;
        if result.is_err() {
            idempotency.release().await;
        }
        match result {
            Ok((reply, metadata)) => Ok(respond(reply, metadata)),
            Err(err) => Err(admitted.fail(err).await.into()),
        }
    }
}

impl SupportApi {
    async fn run(
        &self,
        raw_log: String,
        context: Option<String>,
        locale: &str,
    ) -> ApiResult<Reply> {
        let locale = Locale::parse(locale).ok_or_else(|| {
            ApiError::invalid(format!(
                "locale {locale:?} is not supported: use one of {} (default fr)",
                Locale::NAMES.join(", ")
            ))
        })?;
        let context = context.unwrap_or_default();
        let limit = self.core.config.max_ticket_size;
        let size = raw_log.len() + context.len();
        if size > limit {
            return Err(ApiError::new(
                ErrorCode::TicketTooLarge,
                format!(
                    "the ticket is {size} bytes (rawLog plus ticketContext) and the limit is \
                     {limit}: send the relevant part of the log"
                ),
            ));
        }
        self.core
            .cpu
            .run("the support workflow", move || {
                support::auto_reply(&Ticket {
                    raw_log: &raw_log,
                    context: &context,
                    locale,
                })
            })
            .await
    }
}

fn response(reply: Reply) -> AutoReplyResponse {
    let Reply {
        anonymized,
        summary,
        draft_response,
        stats,
    } = reply;
    AutoReplyResponse {
        anonymized,
        summary,
        draft_response,
        stats: Some(AnonymizationStats {
            ipv4: stats.ipv4,
            ipv6: stats.ipv6,
            email: stats.email,
            domain_user: stats.domain_user,
            fqdn: stats.fqdn,
            total: stats.total(),
        }),
    }
}
