//! The account forms over real HTTP, from browsers at different addresses (127.0.0.x: each
//! client connects from its own loopback address, which the edge counts as the client's):
//! wrong passwords back off per address and never lock the owner out, sign-up answers alike for
//! a known address, log-in and password change rotate the session and its anti-CSRF token, and
//! no route lets one account's session act on another account.

use std::{net::IpAddr, time::Duration};

use quire_e2e::{Db, Stack, csrf_token, session_cookie};
use reqwest::{Response, StatusCode, redirect::Policy};

const PASSWORD: &str = "correct horse battery staple";
const NEW_PASSWORD: &str = "an even better passphrase";

/// A browser at one address, with the session cookie it was last given.
struct Browser {
    http: reqwest::Client,
    base: String,
    cookie: Option<String>,
}

impl Browser {
    fn at(stack: &Stack, address: &str) -> Browser {
        let http = reqwest::Client::builder()
            .local_address(address.parse::<IpAddr>().unwrap())
            .redirect(Policy::none())
            .build()
            .unwrap();
        Browser {
            http,
            base: stack.base.clone(),
            cookie: None,
        }
    }

    async fn get(&self, path: &str) -> Response {
        let mut request = self.http.get(format!("{}{path}", self.base));
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        request.send().await.unwrap()
    }

    /// Posts a form from this site's page; a new session cookie replaces the one held.
    async fn post(&mut self, path: &str, form: &[(&str, &str)]) -> Response {
        let mut request = self
            .http
            .post(format!("{}{path}", self.base))
            .header("origin", &self.base)
            .form(form);
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let response = request.send().await.unwrap();
        if let Some(cookie) = session_cookie(&response) {
            self.cookie = Some(cookie);
        }
        response
    }

    async fn log_in(&mut self, email: &str, password: &str) -> Response {
        self.post("/login", &[("email", email), ("password", password)])
            .await
    }

    /// The anti-CSRF token of the session held, from the account page; none when the session
    /// no longer works (the page redirects to the log-in form).
    async fn csrf(&self) -> Option<String> {
        let page = self.get("/dashboard/account").await;
        if page.status() != StatusCode::OK {
            assert_eq!(page.status(), StatusCode::SEE_OTHER);
            assert!(
                page.headers()["location"]
                    .to_str()
                    .unwrap()
                    .starts_with("/login")
            );
            return None;
        }
        let html = page.text().await.unwrap();
        Some(csrf_token(&html).expect("the page carries the anti-CSRF token"))
    }

    async fn change_password(&mut self, csrf: &str, current: &str, new: &str) -> Response {
        self.post(
            "/dashboard/account",
            &[("csrf", csrf), ("current", current), ("new", new)],
        )
        .await
    }
}

fn retry_after(response: &Response) -> u64 {
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

async fn signed_up(stack: &Stack, address: &str, email: &str) -> Browser {
    let mut browser = Browser::at(stack, address);
    let answer = browser
        .post("/signup", &[("email", email), ("password", PASSWORD)])
        .await;
    assert_eq!(answer.status(), StatusCode::OK);
    let answer = browser.log_in(email, PASSWORD).await;
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    assert!(browser.cookie.is_some());
    browser
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_in_form_backs_off_and_never_locks_the_owner_out() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut owner = signed_up(&stack, "127.0.0.3", "owner@example.com").await;
    let mut attacker = Browser::at(&stack, "127.0.0.2");
    for _ in 0..3 {
        let wrong = attacker
            .log_in("owner@example.com", "guess guess guess")
            .await;
        assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    }
    // The attacker's address now waits, even with the right password, and is told how long.
    let refused = attacker.log_in("owner@example.com", PASSWORD).await;
    assert_eq!(retry_after(&refused), 1);
    assert!(session_cookie(&refused).is_none());
    let page = refused.text().await.unwrap();
    assert!(page.contains("try again in 1 s"), "{page}");
    tokio::time::sleep(Duration::from_millis(1150)).await;
    let wrong = attacker
        .log_in("owner@example.com", "guess guess guess")
        .await;
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let refused = attacker.log_in("owner@example.com", PASSWORD).await;
    assert_eq!(retry_after(&refused), 2);

    // The owner, on their own address, gets in at once.
    let answer = owner.log_in("owner@example.com", PASSWORD).await;
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    assert_eq!(answer.headers()["location"], "/dashboard");
    assert!(owner.csrf().await.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sign_up_form_answers_alike_for_a_known_address() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut browser = Browser::at(&stack, "127.0.0.4");
    let mut pages = Vec::new();
    for password in [PASSWORD, "another passphrase entirely"] {
        let answer = browser
            .post(
                "/signup",
                &[("email", "ivy@example.com"), ("password", password)],
            )
            .await;
        assert_eq!(answer.status(), StatusCode::OK);
        assert!(
            session_cookie(&answer).is_none(),
            "sign-up opens no session"
        );
        pages.push(answer.text().await.unwrap());
    }
    assert_eq!(
        pages[0], pages[1],
        "a known address gets the page a new one gets"
    );
    assert!(
        pages[0].contains("log in with your password"),
        "{}",
        pages[0]
    );
    assert!(pages[0].contains(r#"action="/login""#));
    // The account keeps its first password.
    let wrong = browser
        .log_in("ivy@example.com", "another passphrase entirely")
        .await;
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    let right = browser.log_in("ivy@example.com", PASSWORD).await;
    assert_eq!(right.status(), StatusCode::SEE_OTHER);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_in_and_password_change_rotate_the_session() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut browser = signed_up(&stack, "127.0.0.5", "jo@example.com").await;
    let first = browser.cookie.clone().unwrap();
    let first_csrf = browser.csrf().await.unwrap();

    // Logging in again, with the session cookie still held: a new session, the old one ended.
    browser.log_in("jo@example.com", PASSWORD).await;
    let second = browser.cookie.clone().unwrap();
    assert_ne!(second, first);
    let second_csrf = browser.csrf().await.unwrap();
    assert_ne!(second_csrf, first_csrf);
    let mut old = Browser::at(&stack, "127.0.0.5");
    old.cookie = Some(first.clone());
    assert_eq!(old.csrf().await, None, "the session before log-in is over");

    // A wrong current password changes nothing.
    let wrong = browser
        .change_password(&second_csrf, "not the password", NEW_PASSWORD)
        .await;
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    assert!(session_cookie(&wrong).is_none());
    assert!(
        wrong
            .text()
            .await
            .unwrap()
            .contains("current password is wrong")
    );

    // The change: a new session for this browser, every other one ended.
    let changed = browser
        .change_password(&second_csrf, PASSWORD, NEW_PASSWORD)
        .await;
    assert_eq!(changed.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        changed.headers()["location"],
        "/dashboard/account?changed=1"
    );
    let third = browser.cookie.clone().unwrap();
    assert_ne!(third, second);
    old.cookie = Some(second);
    assert_eq!(
        old.csrf().await,
        None,
        "the session before the change is over"
    );
    let notice = browser.get("/dashboard/account?changed=1").await;
    assert!(notice.text().await.unwrap().contains("Every other session"));
    let third_csrf = browser.csrf().await.unwrap();
    assert_ne!(third_csrf, second_csrf);
    // The old anti-CSRF token no longer passes, even with the new session.
    let stale = browser
        .change_password(&second_csrf, NEW_PASSWORD, "yet another passphrase")
        .await;
    assert_eq!(stale.status(), StatusCode::FORBIDDEN);
    let again = Browser::at(&stack, "127.0.0.6")
        .log_in("jo@example.com", NEW_PASSWORD)
        .await;
    assert_eq!(again.status(), StatusCode::SEE_OTHER);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_password_change_form_backs_off() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut browser = signed_up(&stack, "127.0.0.7", "kim@example.com").await;
    let csrf = browser.csrf().await.unwrap();
    for _ in 0..3 {
        let wrong = browser
            .change_password(&csrf, "not the password", NEW_PASSWORD)
            .await;
        assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    }
    let refused = browser.change_password(&csrf, PASSWORD, NEW_PASSWORD).await;
    let wait = retry_after(&refused);
    assert_eq!(wait, 1);
    assert!(refused.text().await.unwrap().contains("try again in 1 s"));
    tokio::time::sleep(Duration::from_millis(1150)).await;
    let changed = browser.change_password(&csrf, PASSWORD, NEW_PASSWORD).await;
    assert_eq!(changed.status(), StatusCode::SEE_OTHER);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_forms_refuse_another_accounts_session() {
    let stack = Stack::start(Db::Sqlite).await;
    let mut lee = signed_up(&stack, "127.0.0.8", "lee@example.com").await;
    let mut max = signed_up(&stack, "127.0.0.9", "max@example.com").await;
    let lee_csrf = lee.csrf().await.unwrap();
    let max_csrf = max.csrf().await.unwrap();

    // Max's session with Lee's anti-CSRF token: refused before anything is checked.
    let refused = max.change_password(&lee_csrf, PASSWORD, NEW_PASSWORD).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    // Max's session with Lee's password: it is Max's current password that is checked.
    let wrong = max
        .change_password(&max_csrf, "lee's own password", NEW_PASSWORD)
        .await;
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
    assert!(lee.csrf().await.is_some(), "Lee's session is untouched");

    // Lee logs in as Max from the same browser: Lee's session there ends; Max's, elsewhere,
    // does not.
    let lee_token = lee.cookie.clone();
    let answer = lee.log_in("max@example.com", PASSWORD).await;
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    let mut before = Browser::at(&stack, "127.0.0.8");
    before.cookie = lee_token;
    assert_eq!(before.csrf().await, None);
    assert!(max.csrf().await.is_some());
    let page = lee.get("/dashboard/account").await.text().await.unwrap();
    assert!(page.contains("max@example.com"));
}
