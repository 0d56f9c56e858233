//! ASCII85, ASCIIHex and RunLength, strictly: a byte outside the filter's alphabet, a missing
//! end marker or a run cut short fails the decode instead of ending it early.

use super::Undecodable;

pub fn ascii85(input: &[u8], limit: usize) -> Result<Vec<u8>, Undecodable> {
    let mut out = Vec::with_capacity(input.len() / 5 * 4 + 4);
    let mut group = [0u8; 5];
    let mut count = 0;
    // Some writers put PostScript's `<~` in front.
    let body = input.trim_ascii_start();
    let mut bytes = body.strip_prefix(b"<~").unwrap_or(body).iter().copied();
    let mut ended = false;
    for byte in bytes.by_ref() {
        match byte {
            b'~' => {
                ended = true;
                break;
            }
            b'z' if count == 0 => out.extend_from_slice(&[0; 4]),
            b'!'..=b'u' => {
                group[count] = byte - b'!';
                count += 1;
                if count == 5 {
                    out.extend_from_slice(&value(&group)?.to_be_bytes());
                    count = 0;
                }
            }
            _ if byte.is_ascii_whitespace() => {}
            _ => return Err(Undecodable::Damaged),
        }
        if out.len() > limit {
            return Err(Undecodable::Bomb);
        }
    }
    if !ended || bytes.next().is_some_and(|b| b != b'>') || count == 1 {
        return Err(Undecodable::Damaged);
    }
    if count > 0 {
        for slot in group.iter_mut().skip(count) {
            *slot = 84;
        }
        out.extend_from_slice(&value(&group)?.to_be_bytes()[..count - 1]);
    }
    Ok(out)
}

fn value(group: &[u8; 5]) -> Result<u32, Undecodable> {
    group
        .iter()
        .try_fold(0u32, |acc, &digit| {
            acc.checked_mul(85)?.checked_add(u32::from(digit))
        })
        .ok_or(Undecodable::Damaged)
}

pub fn ascii_hex(input: &[u8], limit: usize) -> Result<Vec<u8>, Undecodable> {
    let mut out = Vec::with_capacity(input.len() / 2 + 1);
    let mut high: Option<u8> = None;
    let mut ended = false;
    for &byte in input {
        let digit = match byte {
            b'0'..=b'9' => byte - b'0',
            b'a'..=b'f' => byte - b'a' + 10,
            b'A'..=b'F' => byte - b'A' + 10,
            b'>' => {
                ended = true;
                break;
            }
            _ if byte.is_ascii_whitespace() => continue,
            _ => return Err(Undecodable::Damaged),
        };
        match high.take() {
            Some(h) => out.push(h << 4 | digit),
            None => high = Some(digit),
        }
        if out.len() > limit {
            return Err(Undecodable::Bomb);
        }
    }
    if !ended {
        return Err(Undecodable::Damaged);
    }
    // An odd last digit is followed by a 0 (PDF 32000-1 7.4.2).
    if let Some(h) = high {
        out.push(h << 4);
    }
    Ok(out)
}

pub fn run_length(input: &[u8], limit: usize) -> Result<Vec<u8>, Undecodable> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(&length) = input.get(at) {
        at += 1;
        match length {
            128 => return Ok(out),
            0..=127 => {
                let run = input
                    .get(at..at + usize::from(length) + 1)
                    .ok_or(Undecodable::Damaged)?;
                out.extend_from_slice(run);
                at += run.len();
            }
            _ => {
                let &byte = input.get(at).ok_or(Undecodable::Damaged)?;
                at += 1;
                out.resize(out.len() + 257 - usize::from(length), byte);
            }
        }
        if out.len() > limit {
            return Err(Undecodable::Bomb);
        }
    }
    // The end-of-data byte is often left out; every run was whole.
    Ok(out)
}
