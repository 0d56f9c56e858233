//! The address that sign-up and log-in limits count: stated only by a trusted edge (the one in
//! the process, or one with QUIRE_EDGE_SECRET); any other gRPC caller is counted by its own
//! connection, whatever address it states, empty included.

use super::*;

async fn sign_up_as(
    client: &AccountServiceClient<Channel>,
    email: String,
    address: String,
    secret: Option<&str>,
) -> Result<(), tonic::Status> {
    let mut request = tonic::Request::new(v1::SignUpRequest {
        email,
        password: PASSWORD.into(),
        client_address: address,
    });
    if let Some(secret) = secret {
        request
            .metadata_mut()
            .insert(quire_proto::metadata::EDGE_SECRET, secret.parse().unwrap());
    }
    client.clone().sign_up(request).await.map(|_| ())
}

both_databases!(a_caller_cannot_pick_its_own_address, |db| {
    let stack = Stack::start(db).await;
    let client = accounts(&stack).await;
    // Invented addresses, an empty one and a wrong secret: all are this connection's address.
    let stated = [
        "203.0.113.1",
        "203.0.113.2",
        "",
        "2001:db8::7",
        "not an address",
    ];
    for (i, address) in stated.into_iter().enumerate() {
        sign_up_as(&client, format!("a{i}@example.com"), address.into(), None)
            .await
            .unwrap();
    }
    let wrong_secret = "wrong-edge-secret-0123456789abcdef0123456789";
    for (email, secret) in [
        ("b@example.com", None),
        ("c@example.com", Some(wrong_secret)),
    ] {
        let limited = sign_up_as(&client, email.into(), "198.51.100.77".into(), secret)
            .await
            .unwrap_err();
        assert_eq!(limited.code(), Code::ResourceExhausted, "{email}");
        assert_eq!(reason(&limited), "too-many-sign-ups");
    }

    // The edge states its clients' addresses: each has its own budget.
    for i in 0..6 {
        let address = format!("198.51.100.{i}");
        sign_up_as(
            &client,
            format!("e{i}@example.com"),
            address,
            Some(quire_e2e::EDGE_SECRET),
        )
        .await
        .unwrap();
    }
});

both_databases!(failed_log_ins_count_under_the_callers_own_address, |db| {
    let stack = Stack::start(db).await;
    let client = accounts(&stack).await;
    // Guesses at many accounts, each stating another address, from one untrusted connection:
    // the address limit stops them as if they had stated nothing.
    let mut limited = None;
    for i in 0..60 {
        let guess = client
            .clone()
            .log_in(v1::LogInRequest {
                email: format!("user{i}@example.com"),
                password: "guess guess guess".into(),
                client_address: format!("203.0.113.{i}"),
            })
            .await
            .unwrap_err();
        if guess.code() == Code::ResourceExhausted {
            limited = Some(i);
            break;
        }
        assert_eq!(reason(&guess), "invalid-credentials");
    }
    let limited = limited.expect("the address limit stops an untrusted caller's guesses");
    assert!(limited >= 3, "the first guesses are answered: {limited}");
});
