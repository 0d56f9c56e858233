//! Sessions rotate: log-in and password change give a new token and a new anti-CSRF token, and
//! the old session stops working; a session unused for the idle timeout ends, and the sweeper
//! removes it, with failed log-ins older than the limit's window.

use std::time::Duration;

use super::*;

async fn csrf_of(
    client: &mut AccountServiceClient<Channel>,
    token: &str,
) -> Result<String, tonic::Status> {
    client
        .get_account(in_session(v1::GetAccountRequest {}, token))
        .await
        .map(|r| r.into_inner().csrf_token)
}

both_databases!(log_in_and_password_change_give_a_new_session, |db| {
    let stack = Stack::start(db).await;
    let mut client = accounts(&stack).await;
    let first = sign_up(&mut client, "fay@example.com").await;
    let second = log_in(&mut client, "fay@example.com", PASSWORD, "192.0.2.1")
        .await
        .unwrap();
    assert_ne!(first.token, second.token);
    assert_ne!(first.csrf_token, second.csrf_token);
    assert_eq!(
        csrf_of(&mut client, &second.token).await.unwrap(),
        second.csrf_token
    );

    let third = client
        .change_password(in_session(
            v1::ChangePasswordRequest {
                current_password: PASSWORD.into(),
                new_password: "a brand new passphrase".into(),
                client_address: String::new(),
            },
            &second.token,
        ))
        .await
        .unwrap()
        .into_inner()
        .session
        .expect("the caller's new session");
    for old in [&first, &second] {
        assert_ne!(third.token, old.token);
        assert_ne!(third.csrf_token, old.csrf_token);
        let ended = csrf_of(&mut client, &old.token).await.unwrap_err();
        assert_eq!(reason(&ended), "invalid-session");
    }
    assert_eq!(
        csrf_of(&mut client, &third.token).await.unwrap(),
        third.csrf_token
    );
});

both_databases!(an_idle_session_ends, |db| {
    let config = quire_e2e::test_config(&["--session-idle-timeout", "3"]);
    let stack = Stack::start_with(db, config).await;
    let mut client = accounts(&stack).await;
    let used = sign_up(&mut client, "gus@example.com").await;
    let idle = log_in(&mut client, "gus@example.com", PASSWORD, "192.0.2.1")
        .await
        .unwrap();
    // Used every second, a session outlives its 3 s idle timeout; left alone, the other ends.
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_secs(1)).await;
        csrf_of(&mut client, &used.token).await.unwrap();
    }
    let ended = csrf_of(&mut client, &idle.token).await.unwrap_err();
    assert_eq!(reason(&ended), "invalid-session");
    tokio::time::sleep(Duration::from_millis(3500)).await;
    let ended = csrf_of(&mut client, &used.token).await.unwrap_err();
    assert_eq!(reason(&ended), "invalid-session");

    // The sweeper removes both rows.
    let (sessions, _) = quire_core::files::sweeper::sweep_accounts(&stack.core)
        .await
        .unwrap();
    assert_eq!(sessions, 2);
});

both_databases!(
    the_sweeper_removes_expired_sessions_and_old_failures,
    |db| {
        use quire_core::db::{login_failure, session};
        use sea_orm::{EntityTrait, PaginatorTrait, sea_query::Expr};

        let stack = Stack::start(db).await;
        let mut client = accounts(&stack).await;
        let live = sign_up(&mut client, "erin@example.com").await;
        let old = log_in(&mut client, "erin@example.com", PASSWORD, "192.0.2.1")
            .await
            .unwrap();
        log_in(
            &mut client,
            "erin@example.com",
            "guess guess guess",
            "192.0.2.1",
        )
        .await
        .unwrap_err();
        let db = &stack.core.db;
        let past = chrono::Utc::now() - chrono::Duration::hours(1);
        session::Entity::update_many()
            .col_expr(session::Column::ExpiresAt, Expr::value(past))
            .filter(session::Column::TokenHash.eq(quire_core::auth::key::hash(&old.token)))
            .exec(db)
            .await
            .unwrap();
        // Failures count for 12 hours.
        let long_past = chrono::Utc::now() - chrono::Duration::hours(13);
        login_failure::Entity::update_many()
            .col_expr(login_failure::Column::FailedAt, Expr::value(long_past))
            .exec(db)
            .await
            .unwrap();

        let swept = quire_core::files::sweeper::sweep_accounts(&stack.core)
            .await
            .unwrap();
        assert_eq!(
            swept,
            (1, 3),
            "one session; the account's and the address's failures and the sign-up"
        );
        assert_eq!(session::Entity::find().count(db).await.unwrap(), 1);
        assert_eq!(login_failure::Entity::find().count(db).await.unwrap(), 0);
        client
            .get_account(in_session(v1::GetAccountRequest {}, &live.token))
            .await
            .unwrap();
    }
);
