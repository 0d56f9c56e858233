//! Tools on the document as a whole: protect, unlock, metadata, sanitize.

use quire_proto::v1::{
    FlattenOptions, MetadataEdit, MetadataOptions, ProtectOptions, SanitizeOptions, ToolNote,
    UnlockOptions, metadata_options::Action, tool_options::Tool as Options,
};
use quire_toolbox::{flatten, metadata, sanitize, security};
use serde_json::json;

use super::{Done, Work, failure, json_file};
use crate::workers::protocol::{Failure, FailureKind};

pub fn run(work: &Work, options: Options) -> Result<Done, Failure> {
    match options {
        Options::Protect(ProtectOptions {
            user_password,
            owner_password,
            allow_print,
            allow_copy,
            allow_modify,
        }) => {
            let (path, name) = work.output("-protected.pdf");
            let permissions = security::Permissions {
                print: allow_print,
                copy: allow_copy,
                modify: allow_modify,
            };
            let written = security::protect(
                work.first(),
                &user_password,
                &owner_password,
                permissions,
                &path,
            )
            .map_err(failure)?;
            Ok(Done::file(path, name, written.pages))
        }
        Options::Unlock(UnlockOptions { password }) => {
            let (path, name) = work.output("-unlocked.pdf");
            let written = security::unlock(work.first(), &password, &path).map_err(failure)?;
            Ok(Done::file(path, name, written.pages))
        }
        Options::Metadata(MetadataOptions { action }) => match action {
            Some(Action::Read(_)) => {
                let metadata::Metadata {
                    title,
                    author,
                    subject,
                    keywords,
                    creator,
                    producer,
                    created,
                    modified,
                    custom,
                    xmp_bytes,
                } = metadata::read(work.first()).map_err(failure)?;
                let custom: serde_json::Map<String, serde_json::Value> = custom
                    .into_iter()
                    .map(|(k, v)| (k, serde_json::Value::String(v)))
                    .collect();
                let report = json!({
                    "title": title, "author": author, "subject": subject,
                    "keywords": keywords, "creator": creator, "producer": producer,
                    "created": created, "modified": modified, "custom": custom,
                    "xmpBytes": xmp_bytes,
                });
                json_file(work, "-metadata.json", &report)
            }
            Some(Action::Edit(MetadataEdit {
                title,
                author,
                subject,
                keywords,
                creator,
                producer,
            })) => {
                let (path, name) = work.output("-metadata.pdf");
                let edit = metadata::Edit {
                    title,
                    author,
                    subject,
                    keywords,
                    creator,
                    producer,
                };
                let written = metadata::edit(work.first(), &edit, &path).map_err(failure)?;
                Ok(Done::file(path, name, written.pages))
            }
            Some(Action::Strip(_)) => {
                let (path, name) = work.output("-no-metadata.pdf");
                let written = metadata::strip(work.first(), &path).map_err(failure)?;
                Ok(Done::file(path, name, written.pages))
            }
            None => Err(Failure::new(FailureKind::BadOptions, "no metadata action")),
        },
        Options::Sanitize(SanitizeOptions {
            keep_javascript,
            keep_embedded_files,
            keep_links,
            keep_metadata,
            keep_hidden_layers,
        }) => {
            let (path, name) = work.output("-sanitized.pdf");
            let what = sanitize::Sanitize {
                javascript: !keep_javascript,
                embedded_files: !keep_embedded_files,
                links: !keep_links,
                metadata: !keep_metadata,
                hidden_layers: !keep_hidden_layers,
            };
            let (written, removed) =
                sanitize::sanitize(work.first(), what, &path).map_err(failure)?;
            let mut done = Done::file(path, name, written.pages);
            done.notes = removed
                .into_iter()
                .map(|sanitize::Removed { what, count }| ToolNote {
                    key: what.to_owned(),
                    value: count.to_string(),
                })
                .collect();
            Ok(done)
        }
        Options::Flatten(FlattenOptions {
            keep_fields,
            keep_annotations,
        }) => {
            let (path, name) = work.output("-flattened.pdf");
            let what = flatten::Flatten {
                fields: !keep_fields,
                annotations: !keep_annotations,
            };
            let (
                written,
                flatten::Flattened {
                    widgets,
                    annotations,
                    removed_without_appearance,
                    regenerated,
                    stale_kept,
                },
            ) = flatten::flatten(work.first(), what, &path).map_err(failure)?;
            let mut done = Done::file(path, name, written.pages);
            done.notes = [
                ("form fields burnt in", widgets),
                ("annotations burnt in", annotations),
                ("removed without an appearance", removed_without_appearance),
                ("form fields drawn from their values first", regenerated),
                (
                    "form fields drawn as they were: no font here shows their value",
                    stale_kept,
                ),
            ]
            .into_iter()
            .filter(|(_, count)| *count > 0)
            .map(|(key, count)| ToolNote {
                key: key.to_owned(),
                value: count.to_string(),
            })
            .collect();
            Ok(done)
        }
        _ => Err(Failure::new(FailureKind::Engine, "not a document tool")),
    }
}
