//! Who is on the other end of a call, and the client address that the per-address limits
//! (sign-ups, failed log-ins) count.
//!
//! `SignUpRequest` and `LogInRequest` carry a `client_address` because the edge knows the
//! browser's address and the core does not. Taken from anyone, it let a caller pick a fresh
//! budget per call (an invented or empty address). It is taken only from a caller the core
//! trusts: the edge in this process, or one that sends QUIRE_EDGE_SECRET. Everyone else is
//! counted by their own connection's address, and no caller is ever counted by nothing.

use std::{
    net::{IpAddr, Ipv6Addr, SocketAddr},
    str::FromStr,
};

use quire_proto::metadata::EDGE_SECRET;
use tonic::Request;

/// The connection a call came on, put in each request's extensions by the listener (tonic's
/// `Connected`) or by the in-process transport.
#[derive(Clone, Debug)]
pub enum Peer {
    /// `quire serve`'s edge, calling its core without a socket.
    InProcess,
    Tcp(Option<SocketAddr>),
    /// A unix-socket client, by its user id when the kernel tells it.
    Unix(Option<u32>),
}

/// QUIRE_EDGE_SECRET: compared by its digest in constant time, never printed.
#[derive(Clone)]
pub struct EdgeSecret {
    secret: String,
    digest: blake3::Hash,
}

impl EdgeSecret {
    fn matches(&self, presented: &[u8]) -> bool {
        // blake3::Hash compares in constant time.
        self.digest == blake3::hash(presented)
    }

    /// The secret itself, for an edge to send.
    pub fn expose(&self) -> &str {
        &self.secret
    }
}

impl FromStr for EdgeSecret {
    type Err = String;

    fn from_str(secret: &str) -> Result<Self, String> {
        if !secret.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(
                "the edge secret must be printable ASCII without spaces (it travels in a header)"
                    .into(),
            );
        }
        if secret.len() < 32 {
            return Err(
                "the edge secret must be at least 32 characters (e.g. `openssl rand -hex 32`)"
                    .into(),
            );
        }
        Ok(Self {
            secret: secret.to_owned(),
            digest: blake3::hash(secret.as_bytes()),
        })
    }
}

impl std::fmt::Debug for EdgeSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EdgeSecret(..)")
    }
}

/// Whether `request` comes from an edge: the one in this process, or one with the secret.
pub fn from_edge<T>(request: &Request<T>, secret: Option<&EdgeSecret>) -> bool {
    if matches!(request.extensions().get::<Peer>(), Some(Peer::InProcess)) {
        return true;
    }
    let presented = request
        .metadata()
        .get(EDGE_SECRET)
        .map(|value| value.as_bytes());
    matches!((secret, presented), (Some(secret), Some(presented)) if secret.matches(presented))
}

/// The address the per-address limits count `request` under: the address an edge `stated`,
/// else the caller's own. Never empty.
pub fn client_address<T>(
    request: &Request<T>,
    secret: Option<&EdgeSecret>,
    stated: &str,
) -> String {
    if from_edge(request, secret) {
        if let Ok(ip) = stated.trim().parse::<IpAddr>() {
            return bucket(ip);
        }
    } else if !stated.is_empty() {
        tracing::debug!(
            stated,
            "client address ignored: the caller is not a trusted edge"
        );
    }
    match request.extensions().get::<Peer>() {
        Some(Peer::Tcp(Some(addr))) => bucket(addr.ip()),
        Some(Peer::Unix(Some(uid))) => format!("unix:uid={uid}"),
        Some(Peer::Unix(None)) => "unix".to_owned(),
        // An edge that could not tell its client's address, or a transport without one: one
        // shared budget, never none.
        _ => "unknown".to_owned(),
    }
}

/// The key one address is counted under. An IPv6 client usually holds a whole /64, so it is
/// counted as one; an IPv4-mapped IPv6 address is its IPv4 address.
fn bucket(ip: IpAddr) -> String {
    match ip.to_canonical() {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let [a, b, c, d, ..] = v6.segments();
            format!("{}/64", Ipv6Addr::new(a, b, c, d, 0, 0, 0, 0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "0123456789abcdef0123456789abcdef";

    fn request(peer: Option<Peer>, presented: Option<&str>) -> Request<()> {
        let mut request = Request::new(());
        if let Some(peer) = peer {
            request.extensions_mut().insert(peer);
        }
        if let Some(presented) = presented {
            request
                .metadata_mut()
                .insert(EDGE_SECRET, presented.parse().unwrap());
        }
        request
    }

    #[test]
    fn only_an_edge_states_the_address() {
        let secret: EdgeSecret = SECRET.parse().unwrap();
        let tcp = || Some(Peer::Tcp(Some("198.51.100.9:4000".parse().unwrap())));
        let cases = [
            (request(Some(Peer::InProcess), None), "203.0.113.7"),
            (request(tcp(), Some(SECRET)), "203.0.113.7"),
            (request(tcp(), None), "198.51.100.9"),
            (
                request(tcp(), Some("0123456789abcdef0123456789abcdeX")),
                "198.51.100.9",
            ),
        ];
        for (request, expected) in cases {
            assert_eq!(
                client_address(&request, Some(&secret), "203.0.113.7"),
                expected
            );
        }
        // Without a configured secret, no presented secret is trusted.
        let presented = request(tcp(), Some(SECRET));
        assert_eq!(
            client_address(&presented, None, "203.0.113.7"),
            "198.51.100.9"
        );
    }

    #[test]
    fn an_address_is_never_empty() {
        let secret: EdgeSecret = SECRET.parse().unwrap();
        let tcp = Some(Peer::Tcp(Some("198.51.100.9:4000".parse().unwrap())));
        // An edge that states nothing (or garbage) is counted by its own connection.
        assert_eq!(
            client_address(&request(tcp, Some(SECRET)), Some(&secret), ""),
            "198.51.100.9"
        );
        for peer in [None, Some(Peer::InProcess), Some(Peer::Tcp(None))] {
            assert_eq!(
                client_address(&request(peer, None), None, "not an address"),
                "unknown"
            );
        }
        assert_eq!(
            client_address(&request(Some(Peer::Unix(Some(1000))), None), None, ""),
            "unix:uid=1000"
        );
    }

    #[test]
    fn addresses_are_counted_by_network_where_clients_hold_many() {
        let at = |s: &str| bucket(s.parse().unwrap());
        assert_eq!(at("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
        assert_eq!(at("2001:db8:1:2:bbbb::2"), at("2001:db8:1:2:aaaa::1"));
        assert_eq!(at("::ffff:192.0.2.4"), "192.0.2.4");
        assert_eq!(at("192.0.2.4"), "192.0.2.4");
    }

    #[test]
    fn a_short_secret_is_refused() {
        assert!("short".parse::<EdgeSecret>().is_err());
        assert!(format!("{:?}", SECRET.parse::<EdgeSecret>().unwrap()).contains(".."));
    }
}
