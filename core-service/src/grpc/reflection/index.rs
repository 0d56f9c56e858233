//! What reflection answers from: every file of the registered descriptor sets by name, with
//! its direct dependencies, and the file that defines each symbol (service, method, message,
//! nested message, enum, enum value and extension, fully qualified).

use std::collections::{HashMap, HashSet};

use prost::Message;
use prost_types::{DescriptorProto, EnumDescriptorProto, FileDescriptorProto, FileDescriptorSet};

#[derive(Debug, Default)]
pub struct Index {
    /// File name to its encoded `FileDescriptorProto` and its direct dependencies.
    files: HashMap<String, (Vec<u8>, Vec<String>)>,
    /// Fully qualified symbol to the file defining it.
    symbols: HashMap<String, String>,
    services: Vec<String>,
}

impl Index {
    /// The index of encoded `FileDescriptorSet`s.
    pub fn new(sets: &[&[u8]]) -> Result<Index, prost::DecodeError> {
        let mut index = Index::default();
        for set in sets {
            for file in FileDescriptorSet::decode(*set)?.file {
                index.add(file);
            }
        }
        index.services.sort();
        Ok(index)
    }

    fn add(&mut self, file: FileDescriptorProto) {
        let name = file.name().to_owned();
        let package = file.package();
        let mut symbols = Vec::new();
        for service in &file.service {
            let service_name = qualified(package, service.name());
            for method in &service.method {
                symbols.push(format!("{service_name}.{}", method.name()));
            }
            self.services.push(service_name.clone());
            symbols.push(service_name);
        }
        for message in &file.message_type {
            message_symbols(package, message, &mut symbols);
        }
        for kind in &file.enum_type {
            enum_symbols(package, kind, &mut symbols);
        }
        for extension in &file.extension {
            symbols.push(qualified(package, extension.name()));
        }
        for symbol in symbols {
            self.symbols.entry(symbol).or_insert_with(|| name.clone());
        }
        let dependencies = file.dependency.clone();
        self.files
            .insert(name, (file.encode_to_vec(), dependencies));
    }

    pub fn services(&self) -> &[String] {
        &self.services
    }

    pub fn file_of(&self, symbol: &str) -> Option<&str> {
        self.symbols
            .get(symbol.trim_start_matches('.'))
            .map(String::as_str)
    }

    /// `name` and every file it depends on, directly or not, that is not in `sent`, each
    /// encoded, `name` first; all of them are added to `sent`. `None` for an unknown file.
    pub fn with_dependencies(
        &self,
        name: &str,
        sent: &mut HashSet<String>,
    ) -> Option<Vec<Vec<u8>>> {
        self.files.get(name)?;
        let mut out = Vec::new();
        let mut stack = vec![name.to_owned()];
        let mut first = true;
        while let Some(next) = stack.pop() {
            // The requested file goes out even when sent before: the client asked for it.
            if !sent.insert(next.clone()) && !first {
                continue;
            }
            first = false;
            // A dependency this server does not hold is left for the client to resolve.
            if let Some((encoded, dependencies)) = self.files.get(&next) {
                out.push(encoded.clone());
                stack.extend(dependencies.iter().rev().cloned());
            }
        }
        Some(out)
    }
}

fn qualified(package: &str, name: &str) -> String {
    if package.is_empty() {
        name.to_owned()
    } else {
        format!("{package}.{name}")
    }
}

fn message_symbols(scope: &str, message: &DescriptorProto, out: &mut Vec<String>) {
    let name = qualified(scope, message.name());
    for nested in &message.nested_type {
        message_symbols(&name, nested, out);
    }
    for kind in &message.enum_type {
        enum_symbols(&name, kind, out);
    }
    for extension in &message.extension {
        out.push(qualified(&name, extension.name()));
    }
    out.push(name);
}

fn enum_symbols(scope: &str, kind: &EnumDescriptorProto, out: &mut Vec<String>) {
    let name = qualified(scope, kind.name());
    for value in &kind.value {
        // Enum values are scoped like siblings of their enum, as in C++.
        out.push(qualified(scope, value.name()));
    }
    out.push(name);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_comes_with_the_dependencies_not_yet_sent() {
        let index = Index::new(&[quire_proto::FILE_DESCRIPTOR_SET]).expect("decodes");
        assert!(index.services().iter().any(|s| s == "quire.v1.FileService"));
        let file = index
            .file_of("quire.v1.FileService")
            .expect("defined")
            .to_owned();
        let mut sent = HashSet::new();
        let first = index.with_dependencies(&file, &mut sent).expect("known");
        let decoded: Vec<FileDescriptorProto> = first
            .iter()
            .map(|b| FileDescriptorProto::decode(b.as_slice()).expect("decodes"))
            .collect();
        assert_eq!(decoded[0].name(), file);
        // Every dependency the index holds went out with it, once.
        for dependency in &decoded[0].dependency {
            if index.files.contains_key(dependency) {
                assert!(
                    decoded.iter().any(|d| d.name() == dependency),
                    "{dependency}"
                );
            }
        }
        // Asked again on the same stream: only the file itself.
        assert_eq!(
            index
                .with_dependencies(&file, &mut sent)
                .expect("known")
                .len(),
            1
        );
        assert!(index.file_of(".quire.v1.FileService.Upload").is_some());
        assert!(index.with_dependencies("nope.proto", &mut sent).is_none());
    }
}
