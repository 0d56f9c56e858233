//! Only requests addressed to one of Quire's own host names are served.
//!
//! DNS rebinding: a page on `evil.example` whose name is then made to resolve to 127.0.0.1 can
//! have the visitor's browser send requests to a Quire on that machine and read the answers,
//! since to the browser it is all `evil.example`. The `Host` header still says `evil.example`;
//! refusing it stops the attack. The names served are QUIRE_BASE_URL's host, those listed in
//! QUIRE_ALLOWED_HOSTS and, when the base URL is on this machine, its loopback names.

use std::{net::IpAddr, sync::Arc};

use axum::{
    extract::{Request, State},
    http::{header, uri::Authority},
    middleware::Next,
    response::{IntoResponse, Response},
};
use quire_proto::ErrorCode;

use crate::problem::Problem;

/// Paths answered whatever the host: load balancers and orchestrators probe them by address.
const ANY_HOST_PATHS: &[&str] = &["/healthz", "/readyz"];

#[derive(Clone, Debug, Default)]
pub struct AllowedHosts {
    /// Lowercase host names and bracketed IPv6 literals; `.example.com` also matches its
    /// subdomains.
    names: Vec<String>,
    /// `*` in QUIRE_ALLOWED_HOSTS: no check (a proxy in front checks the host itself).
    any: bool,
}

impl AllowedHosts {
    /// The hosts of `base_url` (and its loopback aliases) plus `extra`.
    pub fn new(base_url: Option<&str>, extra: &[String]) -> Self {
        let mut hosts = AllowedHosts::default();
        for entry in extra {
            match entry.trim() {
                "*" => hosts.any = true,
                "" => {}
                entry => hosts.names.push(name_of(entry)),
            }
        }
        if let Some(host) = base_url.and_then(url_host) {
            if is_local(&host) {
                hosts
                    .names
                    .extend(["localhost", "127.0.0.1", "[::1]"].map(str::to_owned));
            }
            hosts.names.push(host);
        }
        hosts.names.sort();
        hosts.names.dedup();
        hosts
    }

    pub fn allows(&self, host: &str) -> bool {
        let host = name_of(host);
        self.any
            || self.names.iter().any(|name| match name.strip_prefix('.') {
                Some(domain) => host == domain || host.ends_with(name.as_str()),
                None => host == *name,
            })
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// Middleware: 421 `misdirected-request` for a host Quire does not serve.
pub async fn check(
    State(hosts): State<Arc<AllowedHosts>>,
    request: Request,
    next: Next,
) -> Response {
    if ANY_HOST_PATHS.contains(&request.uri().path()) {
        return next.run(request).await;
    }
    // HTTP/1.1 sends `Host`; HTTP/2 the URI's authority.
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .or_else(|| request.uri().authority().map(Authority::as_str));
    match host {
        Some(host) if hosts.allows(host) => next.run(request).await,
        Some(host) => {
            tracing::info!(host, "request for a host not served refused");
            Problem::new(
                ErrorCode::MisdirectedRequest,
                format!(
                    "this server does not answer for the host {host:?}: use its address ({}), or \
                     add the host to QUIRE_ALLOWED_HOSTS",
                    hosts.names().join(", ")
                ),
            )
            .into_response()
        }
        None => Problem::new(
            ErrorCode::MisdirectedRequest,
            "the request names no host: send a Host header",
        )
        .into_response(),
    }
}

/// The host name of `host[:port]`, lowercase, without the port (a rebinding attacker picks the
/// name, not the port) and without a final dot.
fn name_of(authority: &str) -> String {
    let authority = authority.trim().to_ascii_lowercase();
    let name = if authority.starts_with('[') {
        // [::1]:8080
        match authority.find(']') {
            Some(end) => authority[..=end].to_owned(),
            None => authority,
        }
    } else {
        match authority.rsplit_once(':') {
            Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name.to_owned(),
            _ => authority,
        }
    };
    name.trim_end_matches('.').to_owned()
}

fn url_host(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    (!authority.is_empty()).then(|| name_of(authority))
}

fn is_local(host: &str) -> bool {
    if host == "localhost" {
        return true;
    }
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
        .is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_urls_host_and_the_listed_ones_are_served() {
        let hosts = AllowedHosts::new(
            Some("https://files.example.com/"),
            &["quire.internal:8080".into(), ".example.org".into()],
        );
        for host in [
            "files.example.com",
            "FILES.example.com:443",
            "files.example.com.",
            "quire.internal",
            "quire.internal:9999",
            "example.org",
            "a.b.example.org",
        ] {
            assert!(hosts.allows(host), "{host}");
        }
        for host in [
            "evil.example",
            "files.example.com.evil.example",
            "localhost:8080",
            "127.0.0.1",
            "notexample.org",
            "",
        ] {
            assert!(!hosts.allows(host), "{host}");
        }
    }

    #[test]
    fn a_local_base_url_serves_its_loopback_names() {
        for base in [
            "http://127.0.0.1:8080",
            "http://[::1]:8080",
            "http://0.0.0.0:8080",
        ] {
            let hosts = AllowedHosts::new(Some(base), &[]);
            for host in ["localhost:8080", "127.0.0.1:8080", "[::1]:8080"] {
                assert!(hosts.allows(host), "{base} {host}");
            }
            assert!(!hosts.allows("rebind.evil.example:8080"), "{base}");
        }
        assert!(AllowedHosts::new(None, &["*".into()]).allows("anything"));
    }
}
