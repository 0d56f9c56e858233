//! quire.v1.SupportService. The workflow arrives with its own work; until then calls are
//! authenticated and authorized, then answered UNIMPLEMENTED without being counted.

use quire_proto::{
    ErrorCode,
    v1::{AutoReplyRequest, AutoReplyResponse, support_service_server::SupportService},
};
use tonic::{Request, Response, Status};

use super::gate;
use crate::{Core, auth::ScopeRule, error::ApiError};

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
        gate::authorize(&self.core, request.metadata(), ScopeRule::ANY).await?;
        Err(ApiError::new(
            ErrorCode::NotImplemented,
            "the support workflow is not available on this server yet; the call was not counted",
        )
        .into())
    }
}
