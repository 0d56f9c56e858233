//! Sign-ups are limited per client address: the sixth from one address in the window is
//! refused with a Retry-After, another address still signs up.

use super::*;

both_databases!(sign_ups_are_limited_per_address, |db| {
    let stack = Stack::start(db).await;
    let client = accounts(&stack).await;
    let attempt = |email: String, address: &'static str| {
        let mut client = client.clone();
        async move {
            client
                .sign_up(as_edge(v1::SignUpRequest {
                    email,
                    password: PASSWORD.into(),
                    client_address: address.into(),
                }))
                .await
        }
    };
    for i in 0..5 {
        attempt(format!("bulk{i}@example.com"), "198.51.100.9")
            .await
            .unwrap();
    }
    let limited = attempt("bulk5@example.com".into(), "198.51.100.9")
        .await
        .unwrap_err();
    assert_eq!(limited.code(), Code::ResourceExhausted);
    assert_eq!(reason(&limited), "too-many-sign-ups");
    assert!(limited.metadata().get("retry-after").is_some());
    attempt("bulk5@example.com".into(), "203.0.113.50")
        .await
        .unwrap();
});
