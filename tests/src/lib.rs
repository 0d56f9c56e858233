//! End-to-end harness: starts real stacks (core over real gRPC, edge over real HTTP, both on
//! 127.0.0.1:0) against real clamd, SQLite or a fresh PostgreSQL database, and offers the
//! probes the tests need to prove that failures leave nothing behind.

use std::{net::SocketAddr, time::Duration};

use clap::Parser;
use quire_core::{
    Core, CoreConfig,
    auth::accounts,
    db::{account, file},
    quota::Plan,
};
use sea_orm::{EntityTrait, PaginatorTrait};
use tokio::{net::TcpListener, sync::watch};

pub use quire_proto::v1;

pub mod compress_fixtures;
pub mod documents;
pub mod pdf_check;
pub mod pdf_fixtures;
mod remote_edge;
mod requests;
pub mod s3;
pub mod toolbox;
mod tools;
pub use pdf_fixtures::noise;
pub use remote_edge::RemoteEdge;
pub use requests::{
    EDGE_SECRET, as_edge, authed, csrf_token, digest_of, eicar, file_form, in_session, problem,
    session_cookie,
};
pub use s3::S3Server;
pub use tools::{
    clamd_addr, fresh_postgres_database, pdf_corpus, pdfium_lib, python, small_clamd_addr,
    test_worker,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

#[derive(Parser)]
struct ConfigArgs {
    #[command(flatten)]
    core: CoreConfig,
}

/// Core settings for a test stack; `data_dir`, addresses and database are filled in by `start`.
pub fn test_config(extra: &[&str]) -> CoreConfig {
    let mut args = vec!["quire-test".to_owned()];
    if !extra.contains(&"--clamd") {
        args.extend(["--clamd".to_owned(), clamd_addr()]);
    }
    if !extra.contains(&"--worker-program") {
        args.extend([
            "--worker-program".to_owned(),
            test_worker().display().to_string(),
        ]);
    }
    if !extra.contains(&"--pdfium-lib") {
        args.extend([
            "--pdfium-lib".to_owned(),
            pdfium_lib().display().to_string(),
        ]);
    }
    if !extra.contains(&"--edge-secret") {
        args.extend(["--edge-secret".to_owned(), EDGE_SECRET.to_owned()]);
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    ConfigArgs::parse_from(args).core
}

pub struct Stack {
    /// http://127.0.0.1:port of the edge.
    pub base: String,
    /// http://127.0.0.1:port of the core's gRPC API (the first replica's, on PostgreSQL).
    pub grpc: String,
    pub core: Core,
    pub db: Db,
    pub database_url: String,
    _socket_file: Option<quire_core::grpc::SocketFile>,
    _data_dir: tempfile::TempDir,
    shutdown: watch::Sender<bool>,
    /// On PostgreSQL, the layout of `docs/deploy.md`: the other core replica, the edge in front
    /// of both, and the S3 server when this stack started its own.
    scale: Option<Box<ScaleOut>>,
}

struct ScaleOut {
    replica: Stack,
    _edge: RemoteEdge,
    _s3: Option<S3Server>,
}

impl Stack {
    pub async fn start(db: Db) -> Stack {
        Stack::start_with(db, test_config(&[])).await
    }

    /// On SQLite, one process as `quire serve` runs; on PostgreSQL, the scale-out layout: two
    /// core replicas on a fresh database and a bucket of their own on an S3 server, behind one
    /// edge over TCP that balances between them. Either way `base` is the edge.
    pub async fn start_with(db: Db, config: CoreConfig) -> Stack {
        match db {
            Db::Sqlite => Stack::start_on(db, config, None).await,
            Db::Postgres => Stack::start_scaled_out(config).await,
        }
    }

    async fn start_scaled_out(config: CoreConfig) -> Stack {
        let database = Some(fresh_postgres_database().await);
        let (s3, own_s3) = match S3Server::shared() {
            Some(shared) => (shared, None),
            None => {
                let own = S3Server::start().await;
                (own.handle(), Some(own))
            }
        };
        let bucket = format!("quire-{}", uuid::Uuid::new_v4().simple());
        s3.bucket(&bucket).await;
        let http = TcpListener::bind("127.0.0.1:0").await.expect("bind http");
        let base = format!("http://{}", http.local_addr().expect("http addr"));
        // Every replica writes the edge's address into its share links.
        let mut config = s3.store_in(config, &bucket, "q");
        config.base_url = Some(base.clone());
        let mut second = config.clone();
        if let Some(socket) = &mut second.grpc_socket {
            socket.as_mut_os_string().push(".2");
        }
        let mut first = Stack::start_on(Db::Postgres, config, database.clone()).await;
        let replica = Stack::start_on(Db::Postgres, second, database).await;
        let edge = RemoteEdge::serve_on(
            http,
            &format!("{},{}", first.grpc, replica.grpc),
            quire_edge::serve::EdgeSettings::of(&first.core.config),
        );
        first.base = base;
        first.scale = Some(Box::new(ScaleOut {
            replica,
            _edge: edge,
            _s3: own_s3,
        }));
        first
    }

    /// Every core replica of the stack.
    fn replicas(&self) -> impl Iterator<Item = &Stack> {
        std::iter::once(self).chain(self.scale.as_ref().map(|s| &s.replica))
    }

    /// A stack on an existing database: several of them make replicas of one service.
    pub async fn start_on(db: Db, mut config: CoreConfig, database_url: Option<String>) -> Stack {
        let data_dir = tempfile::tempdir().expect("temp dir");
        let grpc = TcpListener::bind("127.0.0.1:0").await.expect("bind grpc");
        let http = TcpListener::bind("127.0.0.1:0").await.expect("bind http");
        let grpc_addr: SocketAddr = grpc.local_addr().expect("grpc addr");
        let http_addr: SocketAddr = http.local_addr().expect("http addr");
        config.data_dir = data_dir.path().to_owned();
        config.database_url = database_url;
        config
            .base_url
            .get_or_insert_with(|| format!("http://{http_addr}"));
        let database_url = config.database_url();
        let core = Core::open(config).await.expect("core opens");
        let (shutdown, rx) = watch::channel(false);
        let until = |mut rx: watch::Receiver<bool>| async move {
            let _ = rx.wait_for(|stop| *stop).await;
        };
        // As in `quire serve`: the edge calls the core in process; gRPC clients use TCP, or the
        // unix socket when the configuration names one.
        let socket = core
            .config
            .grpc_socket
            .as_deref()
            .map(|path| quire_core::grpc::bind_socket(path).expect("bind grpc socket"));
        let (unix, socket_file) = socket.unzip();
        let services = quire_core::grpc::Services::start(&core).expect("core services");
        let limits = quire_edge::serve::EdgeSettings::of(&core.config);
        let clients =
            quire_edge::CoreClients::in_process(services.in_process(), limits.max_message);
        tokio::spawn(services.serve(grpc, unix, until(rx.clone())));
        let grpc_url = format!("http://{grpc_addr}");
        tokio::spawn(async move {
            quire_edge::serve::serve_edge(http, clients, limits, until(rx)).await
        });
        Stack {
            base: format!("http://{http_addr}"),
            grpc: grpc_url,
            core,
            db,
            database_url,
            _socket_file: socket_file,
            _data_dir: data_dir,
            shutdown,
            scale: None,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// A new account on `plan` with one key holding `scopes`; returns (account id, key).
    pub async fn account_with_key(&self, plan: Plan, scopes: &str) -> (i64, String) {
        let email = format!("{}@example.com", uuid::Uuid::new_v4());
        let account = accounts::create_account(&self.core.db, &email, plan)
            .await
            .expect("account");
        let key = accounts::create_key(&self.core.db, &email, "test", scopes)
            .await
            .expect("key");
        (account.id, key.key)
    }

    pub async fn account(&self, account_id: i64) -> account::Model {
        account::Entity::find_by_id(account_id)
            .one(&self.core.db)
            .await
            .expect("query")
            .expect("account")
    }

    /// Another key for an existing account.
    pub async fn key_for(&self, account_id: i64, scopes: &str) -> String {
        let email = self.account(account_id).await.email;
        accounts::create_key(&self.core.db, &email, "extra", scopes)
            .await
            .expect("key")
            .key
    }

    pub async fn storage_used(&self, account_id: i64) -> i64 {
        self.account(account_id).await.storage_used
    }

    /// What the dashboard and GetAccount show: (storage used, of which reserved).
    pub async fn storage_figures(&self, account_id: i64) -> (u64, u64) {
        let model = self.account(account_id).await;
        let usage = quire_core::auth::web::usage(
            &self.core.db,
            &self.core.config,
            &model,
            chrono::Utc::now(),
        )
        .await
        .expect("usage");
        (usage.storage_used, usage.storage_reserved)
    }

    /// A web session's cookie (`quire_session=...`) for a new account `email`, made through
    /// the forms as a browser does: sign up (which opens no session), then log in.
    pub async fn web_session(&self, http: &reqwest::Client, email: &str) -> String {
        let credentials = [
            ("email", email),
            ("password", "correct horse battery staple"),
        ];
        let post = |path: &str| {
            http.post(self.url(path))
                .header("origin", self.base.clone())
                .form(&credentials)
                .send()
        };
        assert_eq!(post("/signup").await.expect("sign-up").status(), 200);
        let logged_in = post("/login").await.expect("log-in");
        session_cookie(&logged_in).expect("a session cookie")
    }

    pub async fn calls_today(&self, account_id: i64) -> i64 {
        self.account(account_id).await.calls_today
    }

    /// Rows in `files`, in any state.
    /// File rows that hold something: a used-up or expired link's row (state `gone`) stays,
    /// with no blob and no storage, so that the link answers 410.
    pub async fn file_rows(&self) -> u64 {
        use sea_orm::{ColumnTrait, QueryFilter};
        file::Entity::find()
            .filter(file::Column::State.ne(file::STATE_GONE))
            .count(&self.core.db)
            .await
            .expect("count")
    }

    /// Blobs of files and resumable uploads (whose parts stay under resumable/ as the file's
    /// bytes), as the blob store lists them, plus what uploads still hold: staging files on
    /// each replica's disk (local store) or open multipart uploads' markers (S3).
    pub async fn blob_count(&self) -> usize {
        use futures::TryStreamExt;
        use object_store::path::Path;
        fn walk(dir: &std::path::Path) -> usize {
            std::fs::read_dir(dir).map_or(0, |entries| {
                entries
                    .flatten()
                    .map(|e| {
                        let path = e.path();
                        if path.is_dir() { walk(&path) } else { 1 }
                    })
                    .sum()
            })
        }
        let mut count = 0;
        for prefix in ["files", "resumable", "multipart"] {
            let listed: Vec<_> = self
                .core
                .store
                .list(Some(&Path::from(prefix)))
                .try_collect()
                .await
                .expect("store listing");
            count += listed.len();
        }
        count
            + self
                .replicas()
                .map(|r| walk(&r._data_dir.path().join("staging")))
                .sum::<usize>()
    }

    /// Waits until the stack holds no file rows, no blobs and no reserved storage for the
    /// account, or panics with what is left after `within`.
    pub async fn assert_nothing_left(&self, account_id: i64, within: Duration) {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let rows = self.file_rows().await;
            let blobs = self.blob_count().await;
            let used = self.storage_used(account_id).await;
            if rows == 0 && blobs == 0 && used == 0 {
                return;
            }
            if tokio::time::Instant::now() > deadline {
                panic!("left behind: {rows} file rows, {blobs} blob files, {used} bytes of quota");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub fn stop(&self) {
        for replica in self.replicas() {
            let _ = replica.shutdown.send(true);
        }
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Declares a test that runs once on SQLite (one process, local blob store) and once scaled
/// out (a fresh PostgreSQL database, S3, two core replicas behind one edge; see
/// [`Stack::start_with`]).
#[macro_export]
macro_rules! both_databases {
    ($name:ident, |$db:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            async fn run($db: $crate::Db) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                run($crate::Db::Sqlite).await
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                run($crate::Db::Postgres).await
            }
        }
    };
}
