//! Scopes a key carries, and the rule each call checks them against.

use quire_proto::ErrorCode;

use crate::error::{ApiError, ApiResult};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    Upload,
    Read,
    Process,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Upload, Scope::Read, Scope::Process];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Upload => "upload",
            Scope::Read => "read",
            Scope::Process => "process",
        }
    }

    pub fn parse(name: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.as_str() == name)
    }
}

/// Parses `upload,read`; refuses unknown names and an empty list.
pub fn parse_list(list: &str) -> ApiResult<Vec<Scope>> {
    let mut scopes = Vec::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let scope = Scope::parse(name).ok_or_else(|| {
            ApiError::new(
                ErrorCode::InvalidArgument,
                format!("unknown scope {name:?}: allowed scopes are upload, read, process"),
            )
        })?;
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    if scopes.is_empty() {
        return Err(ApiError::invalid(
            "a key needs at least one scope: upload, read or process",
        ));
    }
    scopes.sort();
    Ok(scopes)
}

pub fn join(scopes: &[Scope]) -> String {
    scopes
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// The scopes a call accepts: any one of them is enough.
#[derive(Clone, Copy, Debug)]
pub struct ScopeRule(pub &'static [Scope]);

impl ScopeRule {
    pub const UPLOAD: ScopeRule = ScopeRule(&[Scope::Upload]);
    pub const READ_OR_UPLOAD: ScopeRule = ScopeRule(&[Scope::Read, Scope::Upload]);
    pub const ANY: ScopeRule = ScopeRule(&[Scope::Read, Scope::Upload, Scope::Process]);

    pub fn accepts(self, held: &[Scope]) -> bool {
        self.0.iter().any(|s| held.contains(s))
    }

    pub fn describe(self) -> String {
        let names: Vec<_> = self.0.iter().map(|s| format!("`{}`", s.as_str())).collect();
        match names.as_slice() {
            [one] => format!("scope {one}"),
            _ => format!("one of the scopes {}", names.join(", ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_parse_dedup_and_refuse_unknown_names() {
        assert_eq!(
            parse_list("read, upload,read").unwrap(),
            vec![Scope::Upload, Scope::Read]
        );
        assert!(parse_list("").is_err());
        assert!(parse_list("admin").is_err());
    }

    #[test]
    fn rules_accept_any_listed_scope() {
        assert!(ScopeRule::ANY.accepts(&[Scope::Read]));
        assert!(!ScopeRule::UPLOAD.accepts(&[Scope::Read, Scope::Process]));
    }
}
