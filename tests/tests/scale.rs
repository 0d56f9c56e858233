//! Quire at scale: blobs in an S3-compatible store (moto's server, tests/src/s3.rs) on
//! PostgreSQL. What is stored goes to the bucket and only there, a refused or broken upload
//! leaves no object and no open multipart upload, and the sweeper aborts the multipart upload a
//! killed process left open. Two core replicas on one database and one bucket behind one edge
//! share the calls, and the survivor takes them when one stops; quotas and limits hold across
//! them, and replicas starting together migrate in turn.

#[path = "scale/cluster.rs"]
mod cluster;
#[path = "scale/replicas.rs"]
mod replicas;
#[path = "scale/s3_store.rs"]
mod s3_store;
#[path = "scale/shared_limits.rs"]
mod shared_limits;
