//! quire.v1.AccountService: what the web dashboard needs, as thin handlers over the account,
//! session, key and file domains (the admin CLI calls the same functions).

use chrono::Utc;
use quire_proto::v1::{
    Account, ApiKey, ChangePasswordRequest, ChangePasswordResponse, CreateApiKeyRequest,
    CreateApiKeyResponse, GetAccountRequest, GetAccountResponse, ListApiKeysRequest,
    ListApiKeysResponse, ListFilesRequest, ListFilesResponse, LogInRequest, LogInResponse,
    LogOutRequest, LogOutResponse, RevokeApiKeyRequest, RevokeApiKeyResponse, Session,
    SignUpRequest, SignUpResponse, account_service_server::AccountService,
};
use tonic::{Request, Response, Status};

use super::peer;
use crate::{
    Core,
    auth::{self, accounts, scope, sessions::OpenedSession, web},
    db::{account, api_key},
    error::ApiResult,
    files::{self, timestamp},
};

pub struct AccountApi {
    core: Core,
}

impl AccountApi {
    pub fn new(core: Core) -> Self {
        Self { core }
    }

    /// The address the per-address limits count this call under (see [`peer::client_address`]).
    fn client_address<T>(&self, request: &Request<T>, stated: &str) -> String {
        peer::client_address(request, self.core.config.edge_secret.as_ref(), stated)
    }

    async fn account(&self, model: &account::Model) -> ApiResult<Account> {
        let web::Usage {
            plan,
            calls_today,
            daily_limit,
            storage_used,
            storage_reserved,
            storage_quota,
            created_at,
        } = web::usage(&self.core.db, &self.core.config, model, Utc::now()).await?;
        Ok(Account {
            email: model.email.clone(),
            plan: plan.as_str().to_owned(),
            calls_today,
            daily_limit,
            storage_used,
            storage_quota,
            created_at: Some(timestamp(created_at)),
            storage_reserved,
        })
    }
}

#[tonic::async_trait]
impl AccountService for AccountApi {
    async fn sign_up(
        &self,
        request: Request<SignUpRequest>,
    ) -> Result<Response<SignUpResponse>, Status> {
        let client_address = self.client_address(&request, &request.get_ref().client_address);
        let SignUpRequest {
            email,
            password,
            client_address: _,
        } = request.into_inner();
        web::sign_up(&self.core.db, &email, &password, &client_address).await?;
        tracing::info!(client_address, "sign-up");
        // The same empty answer for a new address and a known one: no session, log in next.
        Ok(Response::new(SignUpResponse {
            session: None,
            account: None,
        }))
    }

    async fn log_in(
        &self,
        request: Request<LogInRequest>,
    ) -> Result<Response<LogInResponse>, Status> {
        let client_address = self.client_address(&request, &request.get_ref().client_address);
        let LogInRequest {
            email,
            password,
            client_address: _,
        } = request.into_inner();
        let idle = self.core.config.session_idle_timeout();
        let (account, session) =
            web::log_in(&self.core.db, &email, &password, &client_address, idle).await?;
        Ok(Response::new(LogInResponse {
            session: Some(session_proto(session)),
            account: Some(self.account(&account).await?),
        }))
    }

    async fn log_out(
        &self,
        request: Request<LogOutRequest>,
    ) -> Result<Response<LogOutResponse>, Status> {
        let (session, _) = auth::authenticate_session(&self.core.db, request.metadata()).await?;
        let LogOutRequest {} = request.into_inner();
        auth::sessions::end(&self.core.db, session.id).await?;
        Ok(Response::new(LogOutResponse {}))
    }

    async fn change_password(
        &self,
        request: Request<ChangePasswordRequest>,
    ) -> Result<Response<ChangePasswordResponse>, Status> {
        let (_, account) = auth::authenticate_session(&self.core.db, request.metadata()).await?;
        let client_address = self.client_address(&request, &request.get_ref().client_address);
        let ChangePasswordRequest {
            current_password,
            new_password,
            client_address: _,
        } = request.into_inner();
        let session = web::change_password(
            &self.core.db,
            &account,
            &current_password,
            &new_password,
            &client_address,
            self.core.config.session_idle_timeout(),
        )
        .await?;
        Ok(Response::new(ChangePasswordResponse {
            session: Some(session_proto(session)),
        }))
    }

    async fn get_account(
        &self,
        request: Request<GetAccountRequest>,
    ) -> Result<Response<GetAccountResponse>, Status> {
        let (session, account) =
            auth::authenticate_session(&self.core.db, request.metadata()).await?;
        let GetAccountRequest {} = request.into_inner();
        Ok(Response::new(GetAccountResponse {
            account: Some(self.account(&account).await?),
            csrf_token: session.csrf_token,
        }))
    }

    async fn list_api_keys(
        &self,
        request: Request<ListApiKeysRequest>,
    ) -> Result<Response<ListApiKeysResponse>, Status> {
        let (_, account) = auth::authenticate_session(&self.core.db, request.metadata()).await?;
        let ListApiKeysRequest {} = request.into_inner();
        let keys = accounts::list_keys_for(&self.core.db, account.id).await?;
        Ok(Response::new(ListApiKeysResponse {
            keys: keys.iter().rev().map(key_proto).collect(),
        }))
    }

    async fn create_api_key(
        &self,
        request: Request<CreateApiKeyRequest>,
    ) -> Result<Response<CreateApiKeyResponse>, Status> {
        let (_, account) = auth::authenticate_session(&self.core.db, request.metadata()).await?;
        let CreateApiKeyRequest { name, scopes } = request.into_inner();
        let scopes = scope::parse_list(&scopes.join(","))?;
        let created = accounts::create_key_for(&self.core.db, account.id, &name, scopes).await?;
        let key = accounts::own_key(&self.core.db, account.id, created.id).await?;
        Ok(Response::new(CreateApiKeyResponse {
            key: Some(key_proto(&key)),
            secret: created.key,
        }))
    }

    async fn revoke_api_key(
        &self,
        request: Request<RevokeApiKeyRequest>,
    ) -> Result<Response<RevokeApiKeyResponse>, Status> {
        let (_, account) = auth::authenticate_session(&self.core.db, request.metadata()).await?;
        let RevokeApiKeyRequest { id } = request.into_inner();
        accounts::own_key(&self.core.db, account.id, id).await?;
        accounts::revoke_key(&self.core.db, id).await?;
        let key = accounts::own_key(&self.core.db, account.id, id).await?;
        Ok(Response::new(RevokeApiKeyResponse {
            key: Some(key_proto(&key)),
        }))
    }

    async fn list_files(
        &self,
        request: Request<ListFilesRequest>,
    ) -> Result<Response<ListFilesResponse>, Status> {
        let (_, account) = auth::authenticate_session(&self.core.db, request.metadata()).await?;
        let ListFilesRequest {} = request.into_inner();
        let rows = files::list_ready(&self.core.db, account.id).await?;
        let base_url = self.core.config.base_url();
        Ok(Response::new(ListFilesResponse {
            files: rows
                .iter()
                .map(|row| files::to_proto(row, &base_url))
                .collect(),
        }))
    }
}

fn session_proto(session: OpenedSession) -> Session {
    let OpenedSession {
        token,
        csrf_token,
        expires_at,
    } = session;
    Session {
        token,
        csrf_token,
        expires_at: Some(timestamp(expires_at)),
    }
}

fn key_proto(key: &api_key::Model) -> ApiKey {
    ApiKey {
        id: key.id,
        name: key.name.clone(),
        display_prefix: key.display_prefix.clone(),
        scopes: key.scopes.split(',').map(str::to_owned).collect(),
        created_at: Some(timestamp(key.created_at)),
        last_used_at: key.last_used_at.map(timestamp),
        revoked_at: key.revoked_at.map(timestamp),
    }
}
