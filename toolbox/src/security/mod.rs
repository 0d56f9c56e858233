//! Password protection (AES-256) and its removal.
//!
//! [`protect`] writes the PDF 2.0 security handler (ISO 32000-2, 7.6.4: /V 5 /R 6, AESV3 crypt
//! filters for strings and streams) that every current viewer reads; [`unlock`] opens any
//! standard-handler file lopdf knows (RC4 40/128-bit, AES-128, AES-256 R5/R6) with its user or
//! owner password and writes it in the clear.
//!
//! An encrypted output cannot use object streams: lopdf encrypts object by object before it
//! writes, so [`protect`] writes every object on its own, with a cross-reference stream (never
//! encrypted). [`unlock`] writes like every other tool (`io::save`).

mod passwords;
mod protect;
mod unlock;

use std::path::Path;

use crate::{ToolError, Written};

/// What the owner allows a reader who opened with the user password.
///
/// Viewers enforce these; the file itself is readable by anyone with the user password.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Permissions {
    /// Print, at full quality.
    pub print: bool,
    /// Copy or extract text and images (extraction for accessibility is always allowed, as
    /// PDF 2.0 requires).
    pub copy: bool,
    /// Change the document: edit content, add or change annotations, fill in and create form
    /// fields, insert, delete and rotate pages.
    pub modify: bool,
}

impl Permissions {
    /// Everything allowed.
    pub const ALL: Self = Self {
        print: true,
        copy: true,
        modify: true,
    };
}

/// Encrypts with AES-256 (PDF 2.0 / ISO 32000-2 security handler, V5 R6).
///
/// At least one password is non-empty. An empty owner password makes the user password the
/// owner's too (a reader who opens the file may do everything); an empty user password lets
/// anyone open the file, with `permissions` enforced by viewers. Each password is at most 127
/// bytes of UTF-8 without control characters, and is normalised with SASLprep as the spec
/// asks (lopdf does it, as viewers do when they check it). An input that needs a password to
/// open is [`ToolError::Encrypted`]; one that opens without (restrictions only) is protected
/// anew.
pub fn protect(
    input: &Path,
    user_password: &str,
    owner_password: &str,
    permissions: Permissions,
    output: &Path,
) -> Result<Written, ToolError> {
    protect::protect(input, user_password, owner_password, permissions, output)
}

/// Removes the password: opens `input` with `password` (the user or the owner password) and
/// writes it decrypted.
///
/// A password that opens neither way is [`ToolError::WrongPassword`]; a file that is not
/// encrypted is [`ToolError::BadOptions`]. A file that opens without a password (restrictions
/// only) is unlocked with the empty password or its owner password. Works for the RC4 40/128-bit,
/// AES-128 and AES-256 handlers lopdf knows; a certificate-protected file or an unknown handler
/// is [`ToolError::InvalidFile`].
pub fn unlock(input: &Path, password: &str, output: &Path) -> Result<Written, ToolError> {
    unlock::unlock(input, password, output)
}
