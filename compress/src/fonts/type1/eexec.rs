//! eexec / charstring encryption and splitting a Type 1 program into its cleartext and
//! decrypted private parts (PFA, PFB segments, hex or binary eexec sections).

/// eexec key for the private part.
pub(crate) const EEXEC_KEY: u16 = 55665;
/// Key for each charstring and subroutine.
pub(crate) const CHARSTRING_KEY: u16 = 4330;

const C1: u16 = 52845;
const C2: u16 = 22719;

/// Decrypts `data` with key `r`, dropping the first `skip` plaintext bytes.
pub(crate) fn decrypt(data: &[u8], mut r: u16, skip: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    for &c in data {
        out.push(c ^ (r >> 8) as u8);
        r = (u16::from(c).wrapping_add(r))
            .wrapping_mul(C1)
            .wrapping_add(C2);
    }
    if skip >= out.len() {
        Vec::new()
    } else {
        out.split_off(skip)
    }
}

/// Encrypts `plain` with key `r` (used by tests to build fonts).
#[cfg(test)]
pub(crate) fn encrypt(plain: &[u8], mut r: u16) -> Vec<u8> {
    let mut out = Vec::with_capacity(plain.len());
    for &p in plain {
        let c = p ^ (r >> 8) as u8;
        out.push(c);
        r = (u16::from(c).wrapping_add(r))
            .wrapping_mul(C1)
            .wrapping_add(C2);
    }
    out
}

/// Joins the data of PFB segments (`0x80 type len32le data` ...); returns the input unchanged
/// when it does not start with a segment header.
fn strip_pfb(program: &[u8]) -> Vec<u8> {
    if program.first() != Some(&0x80) {
        return program.to_vec();
    }
    let mut out = Vec::with_capacity(program.len());
    let mut pos = 0;
    while pos + 1 < program.len() && program[pos] == 0x80 {
        let kind = program[pos + 1];
        if kind == 3 || pos + 6 > program.len() {
            break;
        }
        let len = u32::from_le_bytes([
            program[pos + 2],
            program[pos + 3],
            program[pos + 4],
            program[pos + 5],
        ]) as usize;
        let start = pos + 6;
        let end = start.saturating_add(len).min(program.len());
        out.extend_from_slice(&program[start..end]);
        pos = end;
    }
    if pos < program.len() && program[pos] != 0x80 {
        out.extend_from_slice(&program[pos..]);
    }
    out
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | 0)
}

fn hex_val(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Finds the `eexec` operator that ends the cleartext part; returns the offset just after it.
/// Also returns where the encrypted part starts when Length1 says so consistently.
fn find_eexec(data: &[u8], length1: usize) -> Option<(usize, Option<usize>)> {
    let is_at = |i: usize| {
        data.get(i..i + 5) == Some(b"eexec")
            && (i == 0 || is_ws(data[i - 1]))
            && data.get(i + 5).is_none_or(|&c| is_ws(c))
    };
    // Trust Length1 when it points just after `eexec` and its whitespace.
    if length1 >= 6 && length1 <= data.len() {
        let mut i = length1;
        while i > 0 && is_ws(data[i - 1]) {
            i -= 1;
        }
        if i >= 5 && is_at(i - 5) && i < length1 {
            return Some((i, Some(length1)));
        }
    }
    (0..data.len().saturating_sub(4))
        .find(|&i| is_at(i))
        .map(|i| (i + 5, None))
}

/// Splits a Type 1 program: returns (cleartext, decrypted private part without the 4 random
/// leading bytes, cut after `closefile`). The encrypted part runs to the end of the data:
/// Length2 is often wrong in real files, and what follows `closefile` is ignored anyway.
pub(crate) fn split(program: &[u8], length1: usize) -> Option<(Vec<u8>, Vec<u8>)> {
    let data = strip_pfb(program);
    let (end_clear, bin_start) = find_eexec(&data, length1)?;
    let clear = data[..end_clear].to_vec();
    let start = end_clear;
    // eexec is followed by whitespace; binary data may start with bytes that look like
    // whitespace, so skip at most the usual \r\n / \n / space.
    let rest = &data[start..];
    let skip_ws = rest.iter().take_while(|&&c| is_ws(c) && c != 0).count();
    let after_ws = &rest[skip_ws..];
    let hex = after_ws.len() >= 4 && after_ws[..4].iter().all(|&c| hex_val(c).is_some());
    let cipher: Vec<u8> = if hex {
        let mut bytes = Vec::with_capacity(after_ws.len() / 2);
        let mut hi: Option<u8> = None;
        for &c in after_ws {
            if is_ws(c) {
                continue;
            }
            let Some(v) = hex_val(c) else { break };
            match hi.take() {
                Some(h) => bytes.push(h << 4 | v),
                None => hi = Some(v),
            }
        }
        bytes
    } else {
        // A single whitespace char (or \r\n) separates `eexec` from binary data; Length1
        // may say where. Take the first candidate start that decrypts to PostScript text.
        let mut candidates: Vec<usize> = bin_start.into_iter().collect();
        let ws = rest.iter().take(2).take_while(|&&c| is_ws(c)).count();
        candidates.extend((0..=ws).rev().map(|k| start + k));
        let plausible = |s: usize| {
            let head = decrypt(&data[s..data.len().min(s + 68)], EEXEC_KEY, 4);
            let text = head
                .iter()
                .filter(|&&c| c.is_ascii_graphic() || is_ws(c))
                .count();
            !head.is_empty() && text * 10 >= head.len() * 9
        };
        let start = candidates
            .iter()
            .copied()
            .find(|&s| plausible(s))
            .unwrap_or(candidates[0]);
        data[start..].to_vec()
    };
    if cipher.len() < 4 {
        return None;
    }
    let mut private = decrypt(&cipher, EEXEC_KEY, 4);
    // `closefile` also occurs in OtherSubrs code: look for it after the CharStrings.
    let from = private
        .windows(12)
        .position(|w| w == b"/CharStrings")
        .unwrap_or(0);
    if let Some(end) = private[from..].windows(9).position(|w| w == b"closefile") {
        private.truncate(from + end + 9);
    }
    Some((clear, private))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eexec_round_trip() {
        let plain = b"\x01\x02\x03\x04dup /Private 8 dict dup begin";
        let enc = encrypt(plain, EEXEC_KEY);
        assert_ne!(&enc[..], &plain[..]);
        assert_eq!(decrypt(&enc, EEXEC_KEY, 4), &plain[4..]);
    }

    #[test]
    fn split_binary_hex_and_pfb() {
        let clear = b"%!PS-AdobeFont-1.0: X\ncurrentfile eexec\n";
        let enc = encrypt(b"abcd/Private", EEXEC_KEY);
        let mut bin = clear.to_vec();
        bin.extend_from_slice(&enc);
        let (c, p) = split(&bin, 0).expect("binary");
        assert_eq!(c, b"%!PS-AdobeFont-1.0: X\ncurrentfile eexec");
        assert_eq!(p, b"/Private");

        let mut hex = clear.to_vec();
        for b in &enc {
            hex.extend_from_slice(format!("{b:02x}").as_bytes());
        }
        hex.extend_from_slice(b"\n0000\ncleartomark\n");
        let (_, p) = split(&hex, 999).expect("hex");
        assert!(p.starts_with(b"/Private"));

        let mut pfb = vec![0x80, 1];
        pfb.extend_from_slice(&(clear.len() as u32).to_le_bytes());
        pfb.extend_from_slice(clear);
        pfb.extend_from_slice(&[0x80, 2]);
        pfb.extend_from_slice(&(enc.len() as u32).to_le_bytes());
        pfb.extend_from_slice(&enc);
        pfb.extend_from_slice(&[0x80, 3]);
        let (_, p) = split(&pfb, clear.len()).expect("pfb");
        assert_eq!(p, b"/Private");

        // "eexec\r" then cipher text starting with a byte that looks like whitespace, and a
        // Length1 that is off by one: the start that decrypts to text wins.
        let mut lead = 0u8;
        let enc = loop {
            let e = encrypt(
                &[
                    lead, 2, 3, 4, b'/', b'P', b'r', b'i', b'v', b'a', b't', b'e',
                ],
                EEXEC_KEY,
            );
            if e[0] == b'\n' {
                break e;
            }
            lead += 1;
        };
        let mut cr = b"%!\ncurrentfile eexec\r".to_vec();
        cr.extend_from_slice(&enc);
        for l1 in [0, cr.len() - enc.len(), cr.len() - enc.len() + 1] {
            let (_, p) = split(&cr, l1).expect("cr");
            assert_eq!(p, b"/Private", "length1 {l1}");
        }
    }
}
