//! Keeps a [`Pool`](super::Pool)'s replicas current: every [`EVERY`] ([`SOON`] while one is
//! out), the `--core-url`
//! addresses are resolved again (a DNS name may name several replicas, and change), replicas
//! no longer named are dropped, new ones added, and each is asked the standard gRPC health
//! service whether it is SERVING. Ends when the pool is no longer used.

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::{Arc, RwLock, Weak, atomic::Ordering},
    time::Duration,
};

use tonic::transport::Endpoint;
use tonic_health::pb::{
    HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
};

use super::Replica;

/// How often the replicas are resolved and checked.
const EVERY: Duration = Duration::from_secs(2);
/// How soon again while a replica is out: one that is starting or back is taking calls soon.
const SOON: Duration = Duration::from_millis(500);
/// A health check that takes longer fails.
const CHECK_TIMEOUT: Duration = Duration::from_secs(1);

/// `--core-url`'s addresses: `http://host:port`, comma-separated.
#[derive(Clone, Debug)]
pub struct Targets(Vec<(String, u16)>);

impl Targets {
    pub fn parse(urls: &str) -> anyhow::Result<Targets> {
        let mut targets = Vec::new();
        for url in urls.split(',').map(str::trim).filter(|u| !u.is_empty()) {
            let rest = url.strip_prefix("http://").ok_or_else(|| {
                anyhow::anyhow!("a core URL is http://host:port (or one unix:///path), not {url:?}")
            })?;
            let authority = rest.trim_end_matches('/');
            let (host, port) = authority
                .rsplit_once(':')
                .and_then(|(h, p)| Some((h.trim_matches(['[', ']']), p.parse::<u16>().ok()?)))
                .ok_or_else(|| anyhow::anyhow!("a core URL names its port: {url:?}"))?;
            anyhow::ensure!(
                !host.is_empty() && !authority.contains('/'),
                "invalid core URL {url:?}"
            );
            targets.push((host.to_owned(), port));
        }
        anyhow::ensure!(!targets.is_empty(), "no core URL given");
        Ok(Targets(targets))
    }

    /// The targets given as IP addresses, which need no resolving.
    pub(super) fn literal(&self) -> Vec<SocketAddr> {
        self.0
            .iter()
            .filter_map(|(host, port)| Some(SocketAddr::new(host.parse().ok()?, *port)))
            .collect()
    }

    /// Every address the targets resolve to now; a name that does not resolve is skipped (and
    /// logged), as a replica that is gone.
    async fn resolve(&self) -> Vec<SocketAddr> {
        let mut addrs = Vec::new();
        for (host, port) in &self.0 {
            match tokio::net::lookup_host((host.as_str(), *port)).await {
                Ok(found) => addrs.extend(found),
                Err(error) => tracing::warn!(host, %error, "core address does not resolve"),
            }
        }
        addrs.sort();
        addrs.dedup();
        addrs
    }
}

pub(super) struct WeakPool {
    pub replicas: Weak<RwLock<Arc<Vec<Arc<Replica>>>>>,
    pub settings: Arc<dyn Fn(Endpoint) -> Endpoint + Send + Sync>,
}

pub(super) async fn run(pool: WeakPool, targets: Targets) {
    loop {
        let addrs = targets.resolve().await;
        let Some(replicas) = pool.replicas.upgrade() else {
            return;
        };
        let current = Arc::clone(&replicas.read().unwrap_or_else(|e| e.into_inner()));
        let mut known: HashMap<SocketAddr, Arc<Replica>> =
            current.iter().map(|r| (r.addr, Arc::clone(r))).collect();
        let next: Vec<Arc<Replica>> = addrs
            .iter()
            .filter_map(|addr| match known.remove(addr) {
                Some(replica) => Some(replica),
                None => new_replica(*addr, &pool.settings),
            })
            .collect();
        for gone in known.keys() {
            tracing::info!(replica = %gone, "core replica no longer named: dropped");
        }
        *replicas.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(next.clone());
        drop(replicas);
        futures::future::join_all(next.iter().map(|r| check(r))).await;
        let all_in = next.iter().all(|r| r.healthy.load(Ordering::Relaxed));
        tokio::time::sleep(if all_in { EVERY } else { SOON }).await;
    }
}

pub(super) fn new_replica(
    addr: SocketAddr,
    settings: &Arc<dyn Fn(Endpoint) -> Endpoint + Send + Sync>,
) -> Option<Arc<Replica>> {
    let endpoint = Endpoint::from_shared(format!("http://{addr}")).ok()?;
    tracing::info!(replica = %addr, "core replica found");
    Some(Arc::new(Replica {
        addr,
        channel: settings(endpoint).connect_lazy(),
        healthy: Default::default(),
        in_flight: Default::default(),
    }))
}

/// Asks the replica whether it serves; records the answer, logging a change.
async fn check(replica: &Replica) {
    let mut client = HealthClient::new(replica.channel.clone());
    let request = HealthCheckRequest {
        service: String::new(),
    };
    let serving = matches!(
        tokio::time::timeout(CHECK_TIMEOUT, client.check(request)).await,
        Ok(Ok(response)) if response.get_ref().status() == ServingStatus::Serving
    );
    if replica.healthy.swap(serving, Ordering::Relaxed) != serving {
        if serving {
            tracing::info!(replica = %replica.addr, "core replica healthy: taking calls");
        } else {
            tracing::warn!(replica = %replica.addr, "core replica unhealthy: taken out");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_urls_are_read_or_refused() {
        let targets = Targets::parse("http://10.0.0.1:50051, http://core.internal:50051/").unwrap();
        assert_eq!(
            targets.0,
            [
                ("10.0.0.1".to_owned(), 50051),
                ("core.internal".to_owned(), 50051)
            ]
        );
        assert_eq!(
            Targets::parse("http://[::1]:7000").unwrap().0,
            [("::1".to_owned(), 7000)]
        );
        for bad in [
            "",
            "core:50051",
            "https://core:50051",
            "http://core",
            "http://core:x",
            "http://core:1/path",
        ] {
            assert!(Targets::parse(bad).is_err(), "{bad}");
        }
    }
}
