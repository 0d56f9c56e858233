//! The signer's identity from a PKCS#12 file: its private key (RSA, or ECDSA on P-256 or
//! P-384), its certificate and the chain above it, checked to belong together and to be
//! valid now.

use std::time::SystemTime;

use der::asn1::{Ia5StringRef, PrintableStringRef, Utf8StringRef};
use der::{Decode, Encode, oid::ObjectIdentifier};
use p12_keystore::KeyStore;
use rsa::pkcs1::EncodeRsaPublicKey;
use rsa::pkcs8::DecodePrivateKey;
use rsa::signature::{SignatureEncoding, Signer as _};
use x509_cert::name::Name;
use x509_cert::spki::AlgorithmIdentifierOwned;

use super::{Certificate, Signer};
use crate::ToolError;

/// The common name attribute (X.520).
const COMMON_NAME: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.4.3");

/// The signer: a key that can sign and the certificates that vouch for it.
pub struct Identity {
    key: Key,
    /// The signer's certificate first, then the chain the PKCS#12 file holds.
    pub chain: Vec<x509_cert::Certificate>,
    /// The DER of each certificate of `chain`.
    pub chain_der: Vec<Vec<u8>>,
    pub signer: Signer,
}

enum Key {
    Rsa(Box<rsa::RsaPrivateKey>),
    P256(p256::ecdsa::SigningKey),
    P384(p384::ecdsa::SigningKey),
}

impl Identity {
    /// Reads the PKCS#12 file and checks the certificate is valid at `now`.
    pub fn load(certificate: &Certificate, now: SystemTime) -> Result<Identity, ToolError> {
        let store = KeyStore::from_pkcs12(&certificate.pkcs12, &certificate.password)
            .map_err(read_failure)?;
        let (_, entry) = store.private_key_chain().ok_or_else(|| {
            ToolError::BadOptions(
                "the certificate file holds no private key: export the certificate together \
                 with its private key (a .p12/.pfx with the key)"
                    .into(),
            )
        })?;
        let chain_der: Vec<Vec<u8>> = entry
            .chain()
            .iter()
            .map(|cert| cert.as_der().to_vec())
            .collect();
        let chain = chain_der
            .iter()
            .map(|der| x509_cert::Certificate::from_der(der))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| not_pkcs12())?;
        let Some(leaf) = chain.first() else {
            return Err(ToolError::BadOptions(
                "the certificate file holds a private key but no certificate for it: export \
                 the certificate together with its key"
                    .into(),
            ));
        };
        let key = Key::from_pkcs8(entry.key())?;
        if !key.matches(leaf) {
            return Err(ToolError::BadOptions(
                "the private key in the certificate file does not belong to its certificate: \
                 export the certificate together with its own key"
                    .into(),
            ));
        }
        check_validity(leaf, now)?;
        let tbs = &leaf.tbs_certificate;
        let signer = Signer {
            subject: display_name(&tbs.subject),
            issuer: display_name(&tbs.issuer),
            not_after: tbs.validity.not_after.to_date_time().to_string(),
            algorithm: key.describe(),
        };
        Ok(Identity {
            key,
            chain,
            chain_der,
            signer,
        })
    }

    /// The signature of `message` (the DER of the signed attributes), hashed with SHA-256.
    pub fn sign(&self, message: &[u8]) -> Vec<u8> {
        match &self.key {
            Key::Rsa(key) => rsa::pkcs1v15::SigningKey::<sha2::Sha256>::new(key.as_ref().clone())
                .sign(message)
                .to_vec(),
            Key::P256(key) => {
                let signature: p256::ecdsa::Signature = key.sign(message);
                signature.to_der().as_bytes().to_vec()
            }
            Key::P384(key) => {
                // ECDSA over the SHA-256 hash, so that every signature of this tool uses one
                // digest: ecdsa-with-SHA256 is defined for any curve.
                use p384::ecdsa::signature::hazmat::PrehashSigner;
                use sha2::Digest;
                let digest = sha2::Sha256::digest(message);
                let signature: Result<p384::ecdsa::Signature, _> = key.sign_prehash(&digest);
                signature
                    .map(|s| s.to_der().as_bytes().to_vec())
                    .unwrap_or_default()
            }
        }
    }

    /// The signature algorithm as CMS names it.
    pub fn signature_algorithm(&self) -> AlgorithmIdentifierOwned {
        match self.key {
            // rsaEncryption with NULL parameters, as RFC 4056 and most signers write it.
            Key::Rsa(_) => AlgorithmIdentifierOwned {
                oid: ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1"),
                parameters: Some(der::Any::null()),
            },
            Key::P256(_) | Key::P384(_) => AlgorithmIdentifierOwned {
                oid: ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.2"),
                parameters: None,
            },
        }
    }
}

impl Key {
    fn from_pkcs8(der: &[u8]) -> Result<Key, ToolError> {
        if let Ok(key) = rsa::RsaPrivateKey::from_pkcs8_der(der) {
            return Ok(Key::Rsa(Box::new(key)));
        }
        if let Ok(key) = p256::SecretKey::from_pkcs8_der(der) {
            return Ok(Key::P256(key.into()));
        }
        if let Ok(key) = p384::SecretKey::from_pkcs8_der(der) {
            return Ok(Key::P384(key.into()));
        }
        Err(ToolError::BadOptions(
            "the certificate's key type is not supported: use an RSA key, or an ECDSA key on \
             P-256 or P-384"
                .into(),
        ))
    }

    /// Whether the certificate's public key is this key's.
    fn matches(&self, cert: &x509_cert::Certificate) -> bool {
        let public = cert
            .tbs_certificate
            .subject_public_key_info
            .subject_public_key
            .raw_bytes();
        match self {
            Key::Rsa(key) => rsa::RsaPublicKey::from(key.as_ref())
                .to_pkcs1_der()
                .is_ok_and(|der| der.as_bytes() == public),
            Key::P256(key) => p256::PublicKey::from_sec1_bytes(public)
                .is_ok_and(|p| p == p256::PublicKey::from(key.verifying_key())),
            Key::P384(key) => p384::PublicKey::from_sec1_bytes(public)
                .is_ok_and(|p| p == p384::PublicKey::from(key.verifying_key())),
        }
    }

    fn describe(&self) -> String {
        match self {
            Key::Rsa(key) => {
                use rsa::traits::PublicKeyParts;
                format!("RSA {} SHA-256", key.size() * 8)
            }
            Key::P256(_) => "ECDSA P-256 SHA-256".into(),
            Key::P384(_) => "ECDSA P-384 SHA-256".into(),
        }
    }
}

/// A certificate outside its validity period is refused, as Acrobat refuses to sign with an
/// expired digital ID: every verifier would report the signature as made with an invalid
/// certificate, which is worse for the user than being told now.
fn check_validity(cert: &x509_cert::Certificate, now: SystemTime) -> Result<(), ToolError> {
    let validity = &cert.tbs_certificate.validity;
    let date = |time: &x509_cert::time::Time| {
        let t = time.to_date_time();
        format!("{:04}-{:02}-{:02}", t.year(), t.month(), t.day())
    };
    if now > validity.not_after.to_system_time() {
        return Err(ToolError::BadOptions(format!(
            "the certificate expired on {}: sign with a certificate that is still valid",
            date(&validity.not_after)
        )));
    }
    if now < validity.not_before.to_system_time() {
        return Err(ToolError::BadOptions(format!(
            "the certificate is valid only from {}: sign with a certificate that is valid now",
            date(&validity.not_before)
        )));
    }
    Ok(())
}

fn not_pkcs12() -> ToolError {
    ToolError::BadOptions(
        "the certificate file is not a PKCS#12 (.p12/.pfx) file: export your certificate with \
         its private key as .p12 or .pfx"
            .into(),
    )
}

/// What went wrong reading the file: a MAC that does not match or a key that does not
/// decrypt is the password; a structure that does not parse is the file.
fn read_failure(error: p12_keystore::error::Error) -> ToolError {
    use p12_keystore::error::Error;
    match error {
        Error::MacError(_) | Error::UnpadError | Error::Pkcs5Error(_) => {
            ToolError::WrongPassword("the certificate password is wrong".into())
        }
        Error::UnsupportedEncryptionScheme | Error::UnsupportedMacAlgorithm => {
            ToolError::BadOptions(
                "the certificate file is protected with an encryption this tool cannot read: \
                 export it again with AES-256 (OpenSSL 3's default) or 3DES"
                    .into(),
            )
        }
        _ => not_pkcs12(),
    }
}

/// A name as users know it: its common name, or the whole distinguished name.
fn display_name(name: &Name) -> String {
    for rdn in name.0.iter().rev() {
        for attribute in rdn.0.iter() {
            if attribute.oid != COMMON_NAME {
                continue;
            }
            let value = attribute.value.to_der().unwrap_or_default();
            let text = Utf8StringRef::from_der(&value)
                .map(|s| s.as_str().to_owned())
                .or_else(|_| PrintableStringRef::from_der(&value).map(|s| s.as_str().to_owned()))
                .or_else(|_| Ia5StringRef::from_der(&value).map(|s| s.as_str().to_owned()));
            if let Ok(text) = text {
                return text;
            }
        }
    }
    name.to_string()
}
