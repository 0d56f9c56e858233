//! Wrong passwords back off instead of locking the account: after a few free failures, each
//! one doubles the wait (1 s, 2 s, 4 s ...) per (account, address) pair and per address, with
//! 429 `too-many-login-attempts` and Retry-After. Failures from other addresses never hold up
//! the owner on theirs. Wrong current passwords on a password change back off the same way.

use std::time::Duration;

use super::*;

const GUESS: &str = "guess guess guess";

/// The Retry-After seconds of a backoff refusal.
fn waits(status: &tonic::Status) -> u64 {
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert_eq!(reason(status), "too-many-login-attempts");
    status
        .metadata()
        .get("retry-after")
        .expect("retry-after")
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

async fn wait(seconds: u64) {
    tokio::time::sleep(Duration::from_secs(seconds) + Duration::from_millis(150)).await;
}

both_databases!(wrong_passwords_back_off_per_account_and_address, |db| {
    let stack = Stack::start(db).await;
    let mut client = accounts(&stack).await;
    sign_up(&mut client, "bob@example.com").await;
    let attacker = "198.51.100.7";
    for _ in 0..3 {
        let wrong = log_in(&mut client, "bob@example.com", GUESS, attacker)
            .await
            .unwrap_err();
        assert_eq!(reason(&wrong), "invalid-credentials");
    }
    // Then the attacker's address waits before each try, even with the right password, and
    // each failure doubles the wait.
    let mut seen = Vec::new();
    for _ in 0..3 {
        let refused = log_in(&mut client, "bob@example.com", PASSWORD, attacker)
            .await
            .unwrap_err();
        seen.push(waits(&refused));
        wait(*seen.last().unwrap()).await;
        let wrong = log_in(&mut client, "bob@example.com", GUESS, attacker)
            .await
            .unwrap_err();
        assert_eq!(reason(&wrong), "invalid-credentials");
    }
    assert_eq!(seen, [1, 2, 4]);
    let refused = log_in(&mut client, "bob@example.com", GUESS, attacker)
        .await
        .unwrap_err();
    assert_eq!(waits(&refused), 8);

    // Meanwhile the owner, on their own address, gets in at once.
    log_in(&mut client, "bob@example.com", PASSWORD, "203.0.113.9")
        .await
        .unwrap();
    // So does the owner after guesses spread over many addresses (15 failures here, 21 in all:
    // a per-account lock would have shut the owner out long ago).
    for i in 0..5 {
        for _ in 0..3 {
            let wrong = log_in(
                &mut client,
                "bob@example.com",
                GUESS,
                &format!("192.0.2.{}", 100 + i),
            )
            .await
            .unwrap_err();
            assert_eq!(reason(&wrong), "invalid-credentials");
        }
    }
    log_in(&mut client, "bob@example.com", PASSWORD, "203.0.113.9")
        .await
        .unwrap();

    // One address guessing across accounts waits after 10 failures, whatever account it tries
    // next; the same account from another address does not.
    for i in 0..10 {
        let wrong = log_in(
            &mut client,
            &format!("user{i}@example.com"),
            GUESS,
            "198.51.100.8",
        )
        .await
        .unwrap_err();
        assert_eq!(reason(&wrong), "invalid-credentials");
    }
    sign_up(&mut client, "carol@example.com").await;
    let refused = log_in(&mut client, "carol@example.com", PASSWORD, "198.51.100.8")
        .await
        .unwrap_err();
    assert_eq!(waits(&refused), 1);
    assert!(
        refused.message().contains("this address"),
        "{}",
        refused.message()
    );
    log_in(&mut client, "carol@example.com", PASSWORD, "203.0.113.9")
        .await
        .unwrap();
});

/// A password change from session `token`, as the edge sends it for a browser at `address`.
async fn change(
    client: &mut AccountServiceClient<Channel>,
    token: &str,
    current: &str,
    address: &str,
) -> Result<v1::Session, tonic::Status> {
    let mut request = in_session(
        v1::ChangePasswordRequest {
            current_password: current.into(),
            new_password: "a brand new passphrase".into(),
            client_address: address.into(),
        },
        token,
    );
    request.metadata_mut().insert(
        quire_proto::metadata::EDGE_SECRET,
        quire_e2e::EDGE_SECRET.parse().unwrap(),
    );
    client
        .change_password(request)
        .await
        .map(|r| r.into_inner().session.expect("a new session"))
}

both_databases!(wrong_current_passwords_back_off, |db| {
    let stack = Stack::start(db).await;
    let mut client = accounts(&stack).await;
    let session = sign_up(&mut client, "ann@example.com").await;
    for _ in 0..3 {
        let wrong = change(&mut client, &session.token, GUESS, "192.0.2.1")
            .await
            .unwrap_err();
        assert_eq!(reason(&wrong), "invalid-credentials");
    }
    // Whoever holds the session, from any address, now waits: only a session of the account
    // can spend its tries, so this holds up no outsider's victim.
    for address in ["192.0.2.1", "203.0.113.20"] {
        let refused = change(&mut client, &session.token, PASSWORD, address)
            .await
            .unwrap_err();
        assert_eq!(waits(&refused), 1);
    }
    wait(1).await;
    let renewed = change(&mut client, &session.token, PASSWORD, "192.0.2.1")
        .await
        .unwrap();
    assert_ne!(renewed.token, session.token);
    log_in(
        &mut client,
        "ann@example.com",
        "a brand new passphrase",
        "192.0.2.1",
    )
    .await
    .unwrap();
});
