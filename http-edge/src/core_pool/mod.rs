//! Several core replicas behind one edge (`--core-url` with several addresses, or a DNS name
//! that resolves to several): each replica has its own lazily connected channel, a call goes to
//! the healthy replica with the fewest calls in flight, and [`discovery`] keeps the list and
//! their health current, from DNS and the standard gRPC health service. A replica that refuses
//! a connection is taken out at once, and back in when its health check passes again. With no
//! healthy replica a call still goes to one, and fails fast with 503 rather than waiting.

mod discovery;

use std::{
    net::SocketAddr,
    sync::{
        Arc, RwLock,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    task::{Context, Poll},
};

use futures::future::BoxFuture;
use tonic::{
    body::Body,
    codegen::http,
    transport::{Channel, Endpoint},
};
use tower::{Service, ServiceExt};

pub use discovery::Targets;

/// One core replica: its address, its channel, whether its last health check passed, and how
/// many calls it has in flight.
struct Replica {
    addr: SocketAddr,
    channel: Channel,
    healthy: AtomicBool,
    in_flight: AtomicUsize,
}

/// The replicas, as a tower service that the gRPC clients call through.
#[derive(Clone)]
pub struct Pool {
    replicas: Arc<RwLock<Arc<Vec<Arc<Replica>>>>>,
    /// Where the search for the least busy replica starts, turning so that equals share calls.
    turn: Arc<AtomicUsize>,
    settings: Arc<dyn Fn(Endpoint) -> Endpoint + Send + Sync>,
}

impl Pool {
    /// A pool over `targets`, kept current by a task that runs while the pool is in use.
    /// `settings` shapes each replica's endpoint (timeouts, windows).
    pub fn start(
        targets: Targets,
        settings: impl Fn(Endpoint) -> Endpoint + Send + Sync + 'static,
    ) -> Pool {
        let settings: Arc<dyn Fn(Endpoint) -> Endpoint + Send + Sync> = Arc::new(settings);
        // Addresses given as IPs are replicas at once; names wait for their first resolution.
        let known: Vec<Arc<Replica>> = targets
            .literal()
            .into_iter()
            .filter_map(|addr| discovery::new_replica(addr, &settings))
            .collect();
        let pool = Pool {
            replicas: Arc::new(RwLock::new(Arc::new(known))),
            turn: Arc::default(),
            settings,
        };
        tokio::spawn(discovery::run(pool.downgrade(), targets));
        pool
    }

    fn downgrade(&self) -> discovery::WeakPool {
        discovery::WeakPool {
            replicas: Arc::downgrade(&self.replicas),
            settings: Arc::clone(&self.settings),
        }
    }

    /// The healthy replica with the fewest calls in flight; without a healthy one, any (its
    /// call then fails fast); `None` before discovery has found any.
    fn pick(&self) -> Option<Arc<Replica>> {
        let replicas = Arc::clone(&self.replicas.read().unwrap_or_else(|e| e.into_inner()));
        if replicas.is_empty() {
            return None;
        }
        let start = self.turn.fetch_add(1, Ordering::Relaxed);
        let order = (0..replicas.len()).map(|i| &replicas[(start + i) % replicas.len()]);
        let healthy = order
            .clone()
            .filter(|r| r.healthy.load(Ordering::Relaxed))
            .min_by_key(|r| r.in_flight.load(Ordering::Relaxed));
        healthy.or_else(|| order.clone().next()).cloned()
    }
}

/// Counts a call in flight on its replica until dropped.
struct InFlight(Arc<Replica>);

impl InFlight {
    fn new(replica: Arc<Replica>) -> InFlight {
        replica.in_flight.fetch_add(1, Ordering::Relaxed);
        InFlight(replica)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Service<http::Request<Body>> for Pool {
    type Response = http::Response<Body>;
    type Error = tonic::Status;
    type Future = BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // Each replica's channel is buffered: readiness is awaited per call, on the one chosen.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        let picked = self.pick();
        Box::pin(async move {
            let Some(replica) = picked else {
                return Err(tonic::Status::unavailable(
                    "no core replica found yet: the edge is still resolving --core-url",
                ));
            };
            let in_flight = InFlight::new(replica);
            let mut channel = in_flight.0.channel.clone();
            let result = match channel.ready().await {
                Ok(ready) => ready.call(request).await,
                Err(error) => Err(error),
            };
            result.map_err(|error| {
                // Refused or dropped: out until its health check passes again.
                if in_flight.0.healthy.swap(false, Ordering::Relaxed) {
                    tracing::warn!(replica = %in_flight.0.addr, %error, "core replica failed a call: taken out");
                }
                tonic::Status::from_error(Box::new(error))
            })
        })
    }
}
