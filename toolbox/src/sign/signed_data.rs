//! The CMS of a PAdES baseline B-B signature (ETSI EN 319 142-1): a detached SignedData
//! whose signed attributes are the content type, the message digest of the signed bytes and
//! the ESS signing-certificate-v2 that binds the signer's certificate. No signing-time
//! attribute: PAdES takes the time from the signature dictionary's /M.

use cms::cert::{CertificateChoices, IssuerAndSerialNumber};
use cms::content_info::{CmsVersion, ContentInfo};
use cms::signed_data::{
    CertificateSet, EncapsulatedContentInfo, SignedData, SignerIdentifier, SignerInfo, SignerInfos,
};
use der::asn1::{OctetString, SetOfVec};
use der::{Any, Encode, Sequence, oid::ObjectIdentifier};
use sha2::{Digest, Sha256};
use x509_cert::attr::Attribute;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::serial_number::SerialNumber;
use x509_cert::spki::AlgorithmIdentifierOwned;

use super::certificate::Identity;
use crate::ToolError;

const ID_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.1");
const ID_SIGNED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.2");
const ID_CONTENT_TYPE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.3");
const ID_MESSAGE_DIGEST: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.4");
/// id-aa-signingCertificateV2 (RFC 5035).
const ID_SIGNING_CERTIFICATE_V2: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.47");
const ID_SHA_256: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1");

/// ESSCertIDv2 (RFC 5035) with its hash algorithm left at the default, SHA-256.
#[derive(Sequence)]
struct EssCertIdV2 {
    cert_hash: OctetString,
    issuer_serial: IssuerSerial,
}

#[derive(Sequence)]
struct IssuerSerial {
    issuer: Vec<GeneralName>,
    serial_number: SerialNumber,
}

/// SigningCertificateV2 without policies.
#[derive(Sequence)]
struct SigningCertificateV2 {
    certs: Vec<EssCertIdV2>,
}

/// The DER of a ContentInfo holding the SignedData that signs `digest` (the SHA-256 of the
/// bytes the signature covers).
pub fn build(identity: &Identity, digest: &[u8]) -> Result<Vec<u8>, ToolError> {
    encode(identity, digest).map_err(|e| ToolError::Io(format!("cannot encode the signature: {e}")))
}

fn encode(identity: &Identity, digest: &[u8]) -> der::Result<Vec<u8>> {
    let Some(leaf) = identity.chain.first() else {
        return Err(der::ErrorKind::Failed.into());
    };
    let sha256 = AlgorithmIdentifierOwned {
        oid: ID_SHA_256,
        parameters: None,
    };
    let tbs = &leaf.tbs_certificate;
    let signing_certificate = SigningCertificateV2 {
        certs: vec![EssCertIdV2 {
            cert_hash: OctetString::new(Sha256::digest(&identity.chain_der[0]).to_vec())?,
            issuer_serial: IssuerSerial {
                issuer: vec![GeneralName::DirectoryName(tbs.issuer.clone())],
                serial_number: tbs.serial_number.clone(),
            },
        }],
    };
    let attributes = vec![
        attribute(ID_CONTENT_TYPE, Any::encode_from(&ID_DATA)?)?,
        attribute(
            ID_MESSAGE_DIGEST,
            Any::encode_from(&OctetString::new(digest.to_vec())?)?,
        )?,
        attribute(
            ID_SIGNING_CERTIFICATE_V2,
            Any::encode_from(&signing_certificate)?,
        )?,
    ];
    // A SET OF sorts its members, in the DER that is signed and in the one written alike.
    let signed_attrs: SetOfVec<Attribute> = SetOfVec::try_from(attributes)?;
    let signature = identity.sign(&signed_attrs.to_der()?);
    let signer_info = SignerInfo {
        version: CmsVersion::V1,
        sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: tbs.issuer.clone(),
            serial_number: tbs.serial_number.clone(),
        }),
        digest_alg: sha256.clone(),
        signed_attrs: Some(signed_attrs),
        signature_algorithm: identity.signature_algorithm(),
        signature: OctetString::new(signature)?,
        unsigned_attrs: None,
    };
    let certificates = identity
        .chain
        .iter()
        .cloned()
        .map(CertificateChoices::Certificate)
        .collect::<Vec<_>>();
    let signed_data = SignedData {
        version: CmsVersion::V1,
        digest_algorithms: SetOfVec::try_from(vec![sha256])?,
        encap_content_info: EncapsulatedContentInfo {
            econtent_type: ID_DATA,
            econtent: None,
        },
        certificates: Some(CertificateSet(SetOfVec::try_from(certificates)?)),
        crls: None,
        signer_infos: SignerInfos(SetOfVec::try_from(vec![signer_info])?),
    };
    ContentInfo {
        content_type: ID_SIGNED_DATA,
        content: Any::encode_from(&signed_data)?,
    }
    .to_der()
}

fn attribute(oid: ObjectIdentifier, value: Any) -> der::Result<Attribute> {
    Ok(Attribute {
        oid,
        values: SetOfVec::try_from(vec![value])?,
    })
}
