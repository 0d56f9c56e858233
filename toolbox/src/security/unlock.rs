//! Unlock: the document opened with its password and written in the clear.

use std::path::Path;

use lopdf::encryption::DecryptionError;
use lopdf::{Document, EncryptionState, LoadOptions, Object};

use crate::{ToolError, Written, io};

/// What a password that opens nothing gets.
const WRONG: &str =
    "this password does not open the PDF: check it (passwords are case-sensitive) and try again";

pub fn unlock(input: &Path, password: &str, output: &Path) -> Result<Written, ToolError> {
    let mut doc = match Document::load_with_options(input, LoadOptions::with_password(password)) {
        Ok(doc) if !quire_compress::still_encrypted(&doc) => doc,
        // Still encrypted, or refused: find out whether the password or the file is at fault.
        Ok(_) | Err(lopdf::Error::InvalidPassword) => return Err(diagnose(input, password)),
        Err(err) => return Err(load_failure(err)),
    };
    let Some(state) = doc.encryption_state.take() else {
        return Err(ToolError::BadOptions(
            "this PDF has no password to remove".into(),
        ));
    };
    // lopdf tries the empty password first, so a file that opens without one (restrictions
    // only) loads whatever was typed: a password given must still be one of the file's.
    if !password.is_empty() && !opens(&doc, &state, password)? {
        return Err(wrong_password());
    }
    let pages = crate::pages::walk(&doc)?.pages.len();
    io::save(&mut doc, output)?;
    Ok(Written {
        pages: crate::count(pages),
    })
}

fn wrong_password() -> ToolError {
    ToolError::WrongPassword(WRONG.into())
}

/// How a password fares against an /Encrypt dictionary.
enum Check {
    /// The user or the owner password.
    Opens,
    /// Neither.
    Refused,
    /// The right password, but one SASLprep refuses (emoji, ...): lopdf normalises a password
    /// before it uses it, so it cannot decrypt with this one; qpdf hashes such a password as
    /// typed.
    Unprepared,
}

fn check(doc: &Document, password: &str) -> Result<Check, ToolError> {
    match doc.authenticate_password(password) {
        Ok(()) => Ok(Check::Opens),
        Err(lopdf::Error::Decryption(DecryptionError::StringPrep(_))) => {
            match doc.authenticate_raw_password(password.as_bytes()) {
                Ok(()) => Ok(Check::Unprepared),
                Err(_) => Ok(Check::Refused),
            }
        }
        Err(
            lopdf::Error::InvalidPassword
            | lopdf::Error::Decryption(DecryptionError::IncorrectPassword),
        ) => Ok(Check::Refused),
        Err(err) => Err(unsupported(err)),
    }
}

/// Whether `password` is the user or the owner password of the file `doc` was decrypted from:
/// checked against its /Encrypt dictionary as lopdf read it (and the file identifier, which
/// the older handlers hash in).
fn opens(doc: &Document, state: &EncryptionState, password: &str) -> Result<bool, ToolError> {
    let encrypt = state
        .encode()
        .map_err(|e| ToolError::InvalidFile(format!("the PDF's encryption is damaged: {e}")))?;
    let mut probe = Document::with_version(doc.version.clone());
    let id = probe.add_object(encrypt);
    probe.trailer.set("Encrypt", Object::Reference(id));
    if let Ok(file_id) = doc.trailer.get(b"ID") {
        probe.trailer.set("ID", file_id.clone());
    }
    // Already decrypted (with the empty password): a right password that SASLprep refuses
    // is as good as any.
    Ok(!matches!(check(&probe, password)?, Check::Refused))
}

/// Why the file did not open with `password`: reloaded without it, its /Encrypt dictionary
/// tells a wrong password from a security handler lopdf cannot use.
fn diagnose(input: &Path, password: &str) -> ToolError {
    let doc = match Document::load(input) {
        Ok(doc) => doc,
        Err(err) => return load_failure(err),
    };
    let filter = doc
        .get_encrypted()
        .and_then(|encrypt| encrypt.get(b"Filter"))
        .and_then(Object::as_name)
        .map(<[u8]>::to_vec);
    match filter {
        Ok(filter) if filter != b"Standard" => {
            return ToolError::InvalidFile(format!(
                "this PDF is locked with a certificate or a security plug-in (/{}), not a \
                 password: open it in the application that made it",
                String::from_utf8_lossy(&filter)
            ));
        }
        Ok(_) => {}
        // lopdf authenticates only an /Encrypt given by reference (pdfminer's Acrobat samples
        // write it in the trailer itself): say so rather than call it damaged.
        Err(_)
            if doc
                .trailer
                .get(b"Encrypt")
                .and_then(Object::as_dict)
                .is_ok() =>
        {
            return ToolError::InvalidFile(
                "this PDF keeps its encryption dictionary in its trailer, which the toolbox \
                 cannot decrypt: remove the password in the application that made it (or with \
                 qpdf --decrypt) and send it again"
                    .into(),
            );
        }
        Err(_) => {
            return ToolError::InvalidFile(
                "the PDF's encryption dictionary is missing or damaged".into(),
            );
        }
    }
    match check(&doc, password) {
        Ok(Check::Refused) => wrong_password(),
        Ok(Check::Unprepared) => ToolError::InvalidFile(
            "this password is right, but it holds characters the PDF standard does not allow \
             in passwords (emoji, for instance), so the toolbox cannot decrypt with it"
                .into(),
        ),
        // The password is right but lopdf could not decrypt with it.
        Ok(Check::Opens) => ToolError::InvalidFile(
            "the PDF could not be decrypted with this password (damaged encryption)".into(),
        ),
        Err(err) => err,
    }
}

/// A security handler lopdf cannot use, or a damaged /Encrypt dictionary.
fn unsupported(err: lopdf::Error) -> ToolError {
    match err {
        // ISO 32000 requires the /ID of an encrypted file: the older handlers make the key
        // from it. qpdf takes a missing one as empty; lopdf cannot.
        lopdf::Error::Decryption(DecryptionError::MissingFileID) => ToolError::InvalidFile(
            "the PDF's encryption is damaged: the file identifier (/ID) its key is made from \
             is missing, so it cannot be decrypted"
                .into(),
        ),
        // lopdf's own message for these is only "decryption error".
        lopdf::Error::Decryption(inner) => ToolError::InvalidFile(format!(
            "this PDF uses an encryption the toolbox cannot open: {inner}"
        )),
        other => ToolError::InvalidFile(format!(
            "this PDF uses an encryption the toolbox cannot open: {other}"
        )),
    }
}

/// A load error as the other tools report it (`io::open`), for a file that did not load at all.
fn load_failure(err: lopdf::Error) -> ToolError {
    match err {
        lopdf::Error::IO(e) if e.kind() != std::io::ErrorKind::InvalidData => {
            ToolError::Io(format!("cannot read the staged file: {e}"))
        }
        other => ToolError::InvalidFile(format!(
            "the file is not a readable PDF (corrupt or truncated): {other}"
        )),
    }
}
