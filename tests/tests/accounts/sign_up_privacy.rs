//! Sign-up does not tell which e-mail addresses have accounts: a known address gets the same
//! answer as a new one (no session either way), in about the same time, and its account is
//! left as it was.

use std::time::{Duration, Instant};

use super::*;

async fn timed_sign_up(
    client: &mut AccountServiceClient<Channel>,
    email: &str,
    password: &str,
    address: String,
) -> (v1::SignUpResponse, Duration) {
    let started = Instant::now();
    let answer = client
        .sign_up(as_edge(v1::SignUpRequest {
            email: email.into(),
            password: password.into(),
            client_address: address,
        }))
        .await
        .unwrap()
        .into_inner();
    (answer, started.elapsed())
}

both_databases!(sign_up_answers_alike_for_a_known_address, |db| {
    use quire_core::db::session;
    use sea_orm::{EntityTrait, PaginatorTrait};

    let stack = Stack::start(db).await;
    let mut client = accounts(&stack).await;
    let mut new = Vec::new();
    let mut known = Vec::new();
    for i in 0..5 {
        let email = format!("hal{i}@example.com");
        // Each from its own address, to stay under the sign-ups per address.
        let (first, took_new) =
            timed_sign_up(&mut client, &email, PASSWORD, format!("192.0.2.{i}")).await;
        let other = "another passphrase entirely";
        let (again, took_known) =
            timed_sign_up(&mut client, &email, other, format!("198.51.100.{i}")).await;
        assert_eq!(first, again, "{email}");
        assert_eq!(first, v1::SignUpResponse::default());
        new.push(took_new);
        known.push(took_known);
    }
    new.sort();
    known.sort();
    println!(
        "sign-up median: new address {:?}, known address {:?}",
        new[2], known[2]
    );

    // No session was opened, and the known account keeps its password.
    assert_eq!(
        session::Entity::find().count(&stack.core.db).await.unwrap(),
        0
    );
    log_in(&mut client, "hal0@example.com", PASSWORD, "192.0.2.1")
        .await
        .unwrap();
    let wrong = log_in(
        &mut client,
        "hal0@example.com",
        "another passphrase entirely",
        "192.0.2.1",
    )
    .await
    .unwrap_err();
    assert_eq!(reason(&wrong), "invalid-credentials");
});
