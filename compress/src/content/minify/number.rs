//! Numbers written with the fewest characters, rounded or exact.

use super::{LONGEST_INTEGER, Numbers, SIGNIFICANT};

/// `[+-]digits[.digits]` or `[+-].digits`: what every reader takes as a number. Anything
/// else (`0.00-41`, `1e5`, `--2`) is copied as it is.
pub(super) fn is_number(text: &[u8]) -> bool {
    let body = unsigned(text);
    let mut points = 0;
    let mut digits = 0;
    for &c in body {
        match c {
            b'.' => points += 1,
            b'0'..=b'9' => digits += 1,
            _ => return false,
        }
    }
    digits > 0 && points <= 1
}

/// The shortest writing of the number `text` (as [`is_number`] takes it) into `out`.
pub(super) fn number(text: &[u8], numbers: Numbers, out: &mut String) {
    let negative = text.first() == Some(&b'-');
    let body = unsigned(text);
    let (whole, fraction) = match body.iter().position(|&c| c == b'.') {
        Some(point) => (&body[..point], &body[point + 1..]),
        None => (body, &[][..]),
    };
    if fraction.is_empty() && whole.len() > LONGEST_INTEGER {
        out.push_str(&String::from_utf8_lossy(text));
        return;
    }
    // Leading zeros stay in until the end: rounding counts from the first non-zero digit.
    let mut digits: Vec<u8> = whole.iter().chain(fraction).map(|c| c - b'0').collect();
    let mut point = whole.len();
    if numbers == Numbers::Rounded && !fraction.is_empty() {
        round(&mut digits, &mut point);
    }
    let (whole, fraction) = digits.split_at(point);
    let whole = &whole[whole.iter().take_while(|&&d| d == 0).count()..];
    let fraction =
        &fraction[..fraction.len() - fraction.iter().rev().take_while(|&&d| d == 0).count()];
    if whole.is_empty() && fraction.is_empty() {
        out.push('0');
        return;
    }
    if negative {
        out.push('-');
    }
    out.extend(whole.iter().map(|&d| char::from(b'0' + d)));
    if !fraction.is_empty() {
        out.push('.');
        out.extend(fraction.iter().map(|&d| char::from(b'0' + d)));
    }
}

/// `digits` (the decimal point after `point` of them) rounded half up to [`SIGNIFICANT`]
/// significant digits, never left of the point: integers stay whole.
fn round(digits: &mut Vec<u8>, point: &mut usize) {
    let Some(first) = digits.iter().position(|&d| d != 0) else {
        return;
    };
    let keep = (first + SIGNIFICANT).max(*point);
    if keep >= digits.len() {
        return;
    }
    let up = digits[keep] >= 5;
    digits.truncate(keep);
    if !up {
        return;
    }
    for d in digits.iter_mut().rev() {
        if *d == 9 {
            *d = 0;
        } else {
            *d += 1;
            return;
        }
    }
    // All nines: one more digit before them.
    digits.insert(0, 1);
    *point += 1;
}

/// The number without its sign.
fn unsigned(text: &[u8]) -> &[u8] {
    text.strip_prefix(b"-")
        .or_else(|| text.strip_prefix(b"+"))
        .unwrap_or(text)
}
