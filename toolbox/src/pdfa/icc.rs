//! ICC profiles: the free ones the conversion adds, read from Debian's packages at run time
//! like the fonts, and the header checks PDF/A makes of every profile (ISO 19005-1 6.2.2 and
//! 6.2.3.2, ISO 19005-2 6.2.3 and 6.2.4.2).

use std::path::PathBuf;

use crate::ToolError;

/// sRGB IEC 61966-2.1, ICC v2 (icc-profiles-free; zlib licence).
pub const SRGB: &str = "/usr/share/color/icc/sRGB.icc";
/// Ghostscript's default CMYK (SWOP-like), ICC v2 (libgs-common; AGPL like Quire).
pub const CMYK: &str = "/usr/share/color/icc/ghostscript/default_cmyk.icc";
/// Ghostscript's default gray (gamma 2.2), ICC v2 (libgs-common).
pub const GRAY: &str = "/usr/share/color/icc/ghostscript/default_gray.icc";

/// Where a profile is read from: `QUIRE_ICC_DIR` (a folder holding files named as the
/// defaults' last path component) overrides the Debian paths.
fn path(default: &str) -> PathBuf {
    if let Some(dir) = std::env::var_os("QUIRE_ICC_DIR") {
        let name = default.rsplit('/').next().unwrap_or(default);
        return PathBuf::from(dir).join(name);
    }
    PathBuf::from(default)
}

/// The bytes of one of the profiles above.
pub fn load(default: &str) -> Result<Vec<u8>, ToolError> {
    let path = path(default);
    std::fs::read(&path).map_err(|e| {
        ToolError::Io(format!(
            "cannot read the ICC profile {} (Debian packages icc-profiles-free and libgs-common): {e}",
            path.display()
        ))
    })
}

/// What PDF/A looks at in a profile's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub version: u8,
    pub class: [u8; 4],
    pub space: [u8; 4],
}

impl Header {
    pub fn parse(data: &[u8]) -> Option<Header> {
        if data.len() < 128 {
            return None;
        }
        Some(Header {
            version: data[8],
            class: data[12..16].try_into().ok()?,
            space: data[16..20].try_into().ok()?,
        })
    }

    /// Components of the colour space: 1, 3 or 4 (`None` for other spaces).
    pub fn components(&self) -> Option<i64> {
        match &self.space {
            b"GRAY" => Some(1),
            b"RGB " | b"Lab " => Some(3),
            b"CMYK" => Some(4),
            _ => None,
        }
    }

    /// Usable as an output intent's destination profile at `part`.
    pub fn output_ok(&self, part1: bool) -> bool {
        matches!(&self.class, b"prtr" | b"mntr")
            && matches!(&self.space, b"RGB " | b"CMYK" | b"GRAY")
            && self.version <= if part1 { 2 } else { 4 }
    }

    /// Usable in an ICCBased colour space with `n` components.
    pub fn input_ok(&self, n: i64, part1: bool) -> bool {
        matches!(&self.class, b"prtr" | b"mntr" | b"scnr" | b"spac")
            && self.components() == Some(n)
            && self.version <= if part1 { 2 } else { 4 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_debian_profiles_are_usable_at_every_level() {
        for (file, n) in [(SRGB, 3), (CMYK, 4), (GRAY, 1)] {
            let Ok(data) = load(file) else {
                eprintln!("skipped: {file} missing (icc-profiles-free, libgs-common)");
                continue;
            };
            let header = Header::parse(&data).expect("header");
            assert!(header.input_ok(n, true), "{file}");
            if n != 1 {
                assert!(header.output_ok(true), "{file}");
            }
        }
    }
}
