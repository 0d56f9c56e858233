//! What protect asks of passwords and permissions before it encrypts, and the randomness it
//! encrypts with.

use lopdf::Permissions as Bits;

use super::Permissions;
use crate::ToolError;

/// ISO 32000-2, 7.6.4.3.3: a password is truncated to its first 127 bytes after SASLprep.
/// Longer is refused rather than cut silently, so that the password the user typed is the one
/// that opens the file.
pub const MAX_BYTES: usize = 127;

/// The two passwords as the file is written with them: the owner's is the user's when empty.
pub struct Passwords<'a> {
    pub user: &'a str,
    pub owner: &'a str,
}

/// Checks the passwords the user chose; an empty owner password becomes the user password.
///
/// Left to lopdf: SASLprep (RFC 4013), which also refuses some characters (private-use ones,
/// mixed right-to-left and left-to-right text, emoji); see `protect::state`.
pub fn check<'a>(user: &'a str, owner: &'a str) -> Result<Passwords<'a>, ToolError> {
    if user.is_empty() && owner.is_empty() {
        return Err(ToolError::BadOptions(
            "set a password to open the PDF, or an owner password with restrictions".into(),
        ));
    }
    check_one("password to open the PDF", user)?;
    check_one("owner password", owner)?;
    // Without this the empty password would open the file as its owner: in AES-256 files the
    // owner password is checked on its own, not derived from the user's as in older handlers.
    let owner = if owner.is_empty() { user } else { owner };
    Ok(Passwords { user, owner })
}

fn check_one(which: &str, password: &str) -> Result<(), ToolError> {
    if password.len() > MAX_BYTES {
        return Err(ToolError::BadOptions(format!(
            "the {which} is too long: at most {MAX_BYTES} bytes (as many letters, fewer with \
             accents or non-Latin scripts), this one has {}",
            password.len()
        )));
    }
    if password.chars().any(char::is_control) {
        return Err(ToolError::BadOptions(format!(
            "the {which} holds a control character (a tab, a line break, ...): \
             use letters, digits, spaces and punctuation"
        )));
    }
    Ok(())
}

/// The /P bits for what the owner allows. Extraction for accessibility is always allowed:
/// PDF 2.0 deprecates the bit and asks writers to set it.
pub fn bits(permissions: Permissions) -> Bits {
    let mut bits = Bits::COPYABLE_FOR_ACCESSIBILITY;
    if permissions.print {
        bits |= Bits::PRINTABLE | Bits::PRINTABLE_IN_HIGH_QUALITY;
    }
    if permissions.copy {
        bits |= Bits::COPYABLE;
    }
    if permissions.modify {
        bits |= Bits::MODIFIABLE | Bits::ANNOTABLE | Bits::FILLABLE | Bits::ASSEMBLABLE;
    }
    bits
}

/// `N` bytes from the operating system's random source (through `rand`'s thread generator,
/// seeded from it), for the file encryption key and a missing file identifier.
pub fn random<const N: usize>() -> Result<[u8; N], ToolError> {
    let mut bytes = [0; N];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut bytes);
    Ok(bytes)
}
