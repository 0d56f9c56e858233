//! Streams of an encrypted file, decrypted so that the guard measures what the engines decode:
//! PDFium and lopdf open a file whose user password is empty without a word, so a bomb sealed
//! with RC4 or AES is a bomb all the same.
//!
//! The file key comes from lopdf's standard security handler (revisions 2 to 6), handed a
//! document of nothing but the encryption dictionary and the file identifier, so nothing else
//! of the file is loaded. The per-object key also comes from lopdf's crypt filters; the AES
//! decryption is done here, because lopdf refuses data whose padding is wrong where PDFium
//! decrypts it all the same.

use aes::cipher::{BlockCipherDecrypt, KeyInit};
use lopdf::encryption::DecryptionError;
use lopdf::encryption::crypt_filters::IdentityCryptFilter;
use lopdf::{Dictionary, Document, EncryptionState, Object, StringFormat};
use std::sync::Arc;

use super::Refusal;
use super::syntax::Value;

/// How the guard reads a file's streams.
pub enum Sealed {
    /// Not encrypted, or encrypted under a password the guard does not have (the engines do
    /// not have it either, and see only the encrypted bytes): streams are measured as stored.
    Raw,
    /// Encrypted under a password the guard has (the empty one, or the job's): streams are
    /// decrypted first.
    Key(Box<EncryptionState>),
}

/// Opens the file whose trailer names `encrypt` (the dictionary itself) and `id`, with the
/// empty password, then with `password`.
///
/// Only the standard security handler is tried: PDFium opens no other, and lopdf reads the
/// file of another handler undecrypted, as the guard then does. A standard dictionary that
/// cannot be read is refused: lopdf could not derive the key, but PDFium, more lenient, may.
pub fn open(
    encrypt: &Value,
    id: Option<&Value>,
    password: Option<&[u8]>,
) -> Result<Sealed, Refusal> {
    if encrypt.get(b"Filter") != Some(&Value::Name(b"Standard".to_vec())) {
        return Ok(Sealed::Raw);
    }
    let mut document = Document::new();
    let at = document.add_object(object(encrypt));
    document.trailer.set("Encrypt", Object::Reference(at));
    if let Some(id) = id {
        document.trailer.set("ID", object(id));
    }
    let empty: &[u8] = b"";
    for password in std::iter::once(empty).chain(password) {
        match EncryptionState::decode(&document, password) {
            Ok(state) => return Ok(Sealed::Key(Box::new(state))),
            // A password that fails SASLprep (revision 6) opens nothing either.
            Err(lopdf::Error::Decryption(
                DecryptionError::IncorrectPassword | DecryptionError::StringPrep(_),
            )) => continue,
            Err(error) => return Err(Refusal::Unreadable(error.to_string())),
        }
    }
    Ok(Sealed::Raw)
}

fn object(value: &Value) -> Object {
    match value {
        Value::Int(n) => Object::Integer(*n),
        Value::Name(name) => Object::Name(name.clone()),
        Value::Ref(id) => Object::Reference((*id, 0)),
        Value::Bool(b) => Object::Boolean(*b),
        Value::Str(bytes) => Object::String(bytes.clone(), StringFormat::Literal),
        Value::Array(items) => Object::Array(items.iter().map(object).collect()),
        Value::Dict(entries) => {
            let mut dict = Dictionary::new();
            for (key, value) in entries {
                dict.set(key.clone(), object(value));
            }
            Object::Dictionary(dict)
        }
        Value::Other => Object::Null,
    }
}

/// The stream `id` `generation` decrypted, or `None` when it is stored in clear: a
/// cross-reference stream, metadata when `/EncryptMetadata` is false, an `/Identity` crypt
/// filter.
pub fn decrypt(
    state: &EncryptionState,
    (id, generation): (u32, u16),
    dict: &Value,
    filters: &[Vec<u8>],
    raw: &[u8],
) -> Option<Vec<u8>> {
    let named = |name: &[u8]| dict.get(b"Type") == Some(&Value::Name(name.to_vec()));
    if named(b"XRef") || (named(b"Metadata") && !state.encrypt_metadata()) {
        return None;
    }
    // A `/Crypt` filter names its own crypt filter in its parameters, `/Identity` by default.
    let filter = match filters.iter().position(|name| name == b"Crypt") {
        Some(index) => {
            let parms = match dict.get(b"DecodeParms") {
                Some(Value::Array(items)) => items.get(index),
                other => other,
            };
            match parms.and_then(|parms| parms.get(b"Name")) {
                Some(Value::Name(name)) => state
                    .crypt_filters()
                    .get(name)
                    .cloned()
                    .unwrap_or_else(|| Arc::new(IdentityCryptFilter)),
                _ => Arc::new(IdentityCryptFilter),
            }
        }
        None => state.get_stream_filter(),
    };
    let key = filter
        .compute_key(state.file_encryption_key(), (id, generation))
        .ok()?;
    match filter.method() {
        b"AESV2" => {
            let cipher = aes::Aes128::new_from_slice(&key).ok()?;
            Some(aes_cbc(raw, |block| cipher.decrypt_block(block)))
        }
        b"AESV3" => {
            let cipher = aes::Aes256::new_from_slice(&key).ok()?;
            Some(aes_cbc(raw, |block| cipher.decrypt_block(block)))
        }
        b"Identity" => None,
        _ => filter.decrypt(&key, raw).ok(),
    }
}

/// AES in CBC mode, the first block the IV, as PDFium reads it: every whole block decrypted,
/// a trailing partial block dropped, the padding removed only when its byte says 1 to 16.
fn aes_cbc(data: &[u8], decrypt: impl Fn(&mut aes::Block)) -> Vec<u8> {
    let mut blocks = data.chunks_exact(16);
    let mut out = Vec::with_capacity(data.len());
    let Some(iv) = blocks.next() else {
        return out;
    };
    let mut previous = aes::Block::try_from(iv).expect("a chunk of 16");
    for block in blocks {
        let cipher = aes::Block::try_from(block).expect("a chunk of 16");
        let mut plain = cipher;
        decrypt(&mut plain);
        for (p, c) in plain.iter_mut().zip(previous.iter()) {
            *p ^= c;
        }
        out.extend_from_slice(&plain);
        previous = cipher;
    }
    if let Some(&pad) = out.last()
        && (1..=16).contains(&pad)
    {
        out.truncate(out.len() - pad as usize);
    }
    out
}
