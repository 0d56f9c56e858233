//! The web interface: server-rendered pages (maud, compiled in) for people, in French and
//! English. Every page is a translation into AccountService, FileService, ProcessService and
//! SupportService calls made with the visitor's session, like the REST routes with a key; the
//! encrypted share pages are shells for the scripts that encrypt and decrypt in the browser.

mod account_pages;
mod account_settings;
pub mod api_session;
mod assets;
mod dashboard;
mod home;
mod i18n;
mod layout;
mod local;
mod next_path;
mod session;
mod share;
mod toolbox;
mod tools;

use axum::{
    Router,
    routing::{get, post},
};

use crate::EdgeState;

pub fn routes() -> Router<EdgeState> {
    Router::new()
        .route("/", get(home::landing))
        .route("/lang/{lang}", get(i18n::switch))
        .route("/assets/{name}", get(assets::serve))
        .route("/favicon.ico", get(assets::favicon))
        .route(
            "/signup",
            get(account_pages::signup_form).post(account_pages::signup),
        )
        .route(
            "/login",
            get(account_pages::login_form).post(account_pages::login),
        )
        .route("/logout", post(account_pages::logout))
        .route("/dashboard", get(dashboard::overview))
        .route(
            "/dashboard/api-keys",
            get(dashboard::keys).post(dashboard::create_key),
        )
        .route(
            "/dashboard/api-keys/{id}/revoke",
            post(dashboard::revoke_key),
        )
        .route(
            "/dashboard/account",
            get(account_settings::page).post(account_settings::change_password),
        )
        .route("/dashboard/files", get(dashboard::files))
        .route(
            "/dashboard/files/{token}/delete",
            post(dashboard::delete_file),
        )
        .route("/share", get(share::send_page))
        // The recipient's side: the service worker (a static segment, which wins over the
        // token) and the page. The page's JSON routes are the API's (routes/encrypted_share.rs).
        .route("/s/sw.js", get(assets::share_worker))
        .route("/s/{token}", get(share::receive_page))
        .route("/local", get(local::index))
        .route("/local/{slug}", get(local::page))
        .route("/tools", get(tools::index))
        .route("/tools/{tool}", get(tools::page))
}
