//! Protect: the document encrypted with the AES-256 security handler (V5 R6) and written.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use lopdf::encryption::DecryptionError;
use lopdf::encryption::crypt_filters::{Aes256CryptFilter, CryptFilter};
use lopdf::{
    Dictionary, Document, EncryptionState, EncryptionVersion, Object, SaveOptions, StringFormat,
};

use super::Permissions;
use super::passwords::{self, Passwords};
use crate::{ToolError, Written, io};

/// The crypt filter every string and stream goes through, under the name qpdf and Acrobat use.
const FILTER: &[u8] = b"StdCF";

/// Adobe's extension level 8 to PDF 1.7 is the AES-256 handler of revision 6, which PDF 2.0
/// adopted; a 1.x file declares it so that 1.7 readers know what they are reading (as qpdf
/// and Acrobat write it).
const EXTENSION_LEVEL: i64 = 8;

pub fn protect(
    input: &Path,
    user_password: &str,
    owner_password: &str,
    permissions: Permissions,
    output: &Path,
) -> Result<Written, ToolError> {
    let passwords = passwords::check(user_password, owner_password)?;
    // A file that needs a password is `Encrypted`; one that opens without comes decrypted.
    let mut doc = io::open(input)?;
    let pages = crate::pages::walk(&doc)?.pages.len();
    let key = passwords::random::<32>()?;
    let state = state(&passwords, permissions, &key)?;
    prepare(&mut doc)?;
    doc.encrypt(&state)
        .map_err(|e| ToolError::InvalidFile(format!("the PDF could not be encrypted: {e}")))?;
    write(&mut doc, output)?;
    Ok(Written {
        pages: crate::count(pages),
    })
}

/// The encryption of the output: AES-256 for strings, streams and the XMP metadata.
fn state(
    passwords: &Passwords<'_>,
    permissions: Permissions,
    key: &[u8; 32],
) -> Result<EncryptionState, ToolError> {
    let build = |user: &str, owner: &str| {
        let filter: Arc<dyn CryptFilter> = Arc::new(Aes256CryptFilter);
        EncryptionState::try_from(EncryptionVersion::V5 {
            encrypt_metadata: true,
            crypt_filters: BTreeMap::from([(FILTER.to_vec(), filter)]),
            file_encryption_key: key,
            stream_filter: FILTER.to_vec(),
            string_filter: FILTER.to_vec(),
            owner_password: owner,
            user_password: user,
            permissions: passwords::bits(permissions),
        })
    };
    match build(passwords.user, passwords.owner) {
        Ok(state) => Ok(state),
        // lopdf normalises both passwords with SASLprep (RFC 4013) before hashing them, as
        // the spec asks; what that refuses is a password no conforming viewer could match.
        Err(lopdf::Error::Decryption(DecryptionError::StringPrep(_))) => {
            let which = match build(passwords.user, passwords.user) {
                Err(_) => "password to open the PDF",
                Ok(_) => "owner password",
            };
            Err(ToolError::BadOptions(format!(
                "the {which} holds a character PDF passwords cannot: the standard (SASLprep) \
                 refuses emoji and other characters newer than Unicode 3.2, private-use \
                 characters, and right-to-left letters mixed with left-to-right ones"
            )))
        }
        Err(other) => Err(ToolError::InvalidFile(format!(
            "the PDF could not be encrypted: {other}"
        ))),
    }
}

/// What `io::save` does before it writes, for a file that is encrypted next (plain streams
/// compressed first: encrypted data does not compress), and the version and file identifier
/// an encrypted file needs.
fn prepare(doc: &mut Document) -> Result<(), ToolError> {
    // Only what a new file's trailer carries over: the input's /Prev, /XRefStm or /Filter
    // would describe the new cross-reference stream wrongly.
    let mut trailer = Dictionary::new();
    for key in [b"Root".as_slice(), b"Info", b"ID"] {
        if let Ok(value) = doc.trailer.get(key) {
            trailer.set(key, value.clone());
        }
    }
    if !has_id(&trailer) {
        // Required in an encrypted file (ISO 32000-2, 14.4); unused by revision 6's keys.
        let id = passwords::random::<16>()?.to_vec();
        let id = Object::String(id, StringFormat::Hexadecimal);
        trailer.set("ID", Object::Array(vec![id.clone(), id]));
    }
    doc.trailer = trailer;
    doc.prune_objects();
    crate::streams::compress_plain(doc);
    declare_extension(doc);
    Ok(())
}

/// Whether the trailer's /ID is the array of two strings the spec asks for.
fn has_id(trailer: &Dictionary) -> bool {
    trailer
        .get(b"ID")
        .and_then(Object::as_array)
        .is_ok_and(|id| id.len() == 2 && id.iter().all(|part| part.as_str().is_ok()))
}

/// A 1.x document becomes 1.7 with Adobe's extension level 8 in the catalog; a 2.0 one has
/// the handler in its version already.
fn declare_extension(doc: &mut Document) {
    if doc.version.as_str() >= "2.0" {
        return;
    }
    if doc.version.as_str() < "1.7" {
        doc.version = "1.7".into();
    }
    let adbe = Dictionary::from_iter([
        ("BaseVersion", Object::Name(b"1.7".to_vec())),
        ("ExtensionLevel", Object::Integer(EXTENSION_LEVEL)),
    ]);
    // /Extensions may be an indirect object; set ADBE where the dictionary lives.
    let extensions_id = doc
        .catalog()
        .ok()
        .and_then(|catalog| catalog.get(b"Extensions").ok())
        .and_then(|extensions| extensions.as_reference().ok());
    let extensions = match extensions_id {
        Some(id) => doc.get_dictionary_mut(id).ok(),
        None => doc.catalog_mut().ok().and_then(|catalog| {
            if !catalog
                .get(b"Extensions")
                .is_ok_and(|e| e.as_dict().is_ok())
            {
                catalog.set("Extensions", Dictionary::new());
            }
            catalog.get_mut(b"Extensions").ok()?.as_dict_mut().ok()
        }),
    };
    let Some(extensions) = extensions else {
        return;
    };
    let level = extensions
        .get(b"ADBE")
        .and_then(Object::as_dict)
        .and_then(|adbe| adbe.get(b"ExtensionLevel"))
        .and_then(Object::as_i64)
        .unwrap_or(0);
    if level < EXTENSION_LEVEL {
        extensions.set("ADBE", adbe);
    }
}

/// Writes the encrypted `doc`: lopdf writes an encrypted document's objects one by one (no
/// object streams), here with a cross-reference stream, which is never encrypted.
fn write(doc: &mut Document, output: &Path) -> Result<(), ToolError> {
    let file = std::fs::File::create(output)
        .map_err(|e| ToolError::Io(format!("cannot write the output: {e}")))?;
    let mut file = std::io::BufWriter::with_capacity(1 << 16, file);
    let options = SaveOptions::builder().use_xref_streams(true).build();
    doc.save_with_options(&mut file, options)
        .and_then(|()| file.flush())
        .map_err(|e| ToolError::Io(format!("cannot write the PDF: {e}")))
}
