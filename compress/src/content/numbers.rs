//! Numbers in content streams: reals then integers, as lopdf tries them, with a fast path for
//! the short decimals nearly every content stream holds.

use lopdf::Object;

use super::{Parser, Step, Stop};

impl Parser<'_> {
    /// A real, else an integer, as lopdf tries them.
    pub(super) fn number(&mut self) -> Step<Object> {
        match self.attempt(Self::real) {
            Ok(value) => Ok(Object::Real(value)),
            Err(_) => self.integer().map(Object::Integer),
        }
    }

    pub(super) fn sign(&mut self) -> bool {
        match self.peek() {
            Some(b'+') => {
                self.at += 1;
                false
            }
            Some(b'-') => {
                self.at += 1;
                true
            }
            _ => false,
        }
    }

    pub(super) fn digits(&mut self) -> &[u8] {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        &self.data[start..self.at]
    }

    /// Digits with a point somewhere, as lopdf reads them: a minus sign inside the fraction
    /// (`0.00-4142502`, which some producers write) is dropped.
    pub(super) fn real(&mut self) -> Step<f32> {
        let start = self.at;
        let negative = self.sign();
        let whole = self.digits().len();
        if !self.eat(b".") {
            return Err(Stop::Miss);
        }
        let fraction = self.digits().len();
        if whole == 0 && fraction == 0 {
            return Err(Stop::Miss);
        }
        let mut minus_inside = false;
        while let Some(c) = self.peek().filter(|&c| c == b'-' || c.is_ascii_digit()) {
            minus_inside |= c == b'-';
            self.at += 1;
        }
        let text = &self.data[start..self.at];
        if minus_inside {
            let mut digits = text[..1].to_vec();
            digits.extend(text[1..].iter().filter(|&&c| c != b'-'));
            return parse_float(&digits);
        }
        Ok(match short_decimal(text, fraction) {
            Some(value) if negative => -value,
            Some(value) => value,
            None => parse_float(text)?,
        })
    }

    pub(super) fn integer(&mut self) -> Step<i64> {
        let negative = self.sign();
        let digits = self.digits();
        if digits.is_empty() {
            return Err(Stop::Miss);
        }
        let magnitude = digits_value(digits).ok_or(Stop::Miss)?;
        let value = if negative {
            0i64.checked_sub_unsigned(magnitude)
        } else {
            i64::try_from(magnitude).ok()
        };
        value.ok_or(Stop::Miss)
    }

    pub(super) fn unsigned<I: TryFrom<u64>>(&mut self) -> Step<I> {
        let digits = self.digits();
        if digits.is_empty() {
            return Err(Stop::Miss);
        }
        digits_value(digits)
            .and_then(|value| I::try_from(value).ok())
            .ok_or(Stop::Miss)
    }
}

fn parse_float(text: &[u8]) -> Step<f32> {
    std::str::from_utf8(text)
        .ok()
        .and_then(|text| text.parse().ok())
        .ok_or(Stop::Miss)
}

/// Powers of ten that `f32` holds exactly.
const POWERS: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// The magnitude of a real (sign, digits, point, `fraction` digits) when its digits fit
/// `f32`'s mantissa and its fraction is at most ten digits, as nearly all in content streams
/// do: then one division of two exact values rounds as `str::parse` does (its own fast path,
/// Clinger's), at a fraction of its cost.
fn short_decimal(text: &[u8], fraction: usize) -> Option<f32> {
    let exact = *POWERS.get(fraction)?;
    let mut mantissa = 0u32;
    for &c in text {
        if c.is_ascii_digit() {
            mantissa = mantissa * 10 + u32::from(c - b'0');
            if mantissa > 1 << 24 {
                return None;
            }
        }
    }
    Some(mantissa as f32 / exact)
}

/// The value of a run of ASCII digits, or `None` past `u64`.
fn digits_value(digits: &[u8]) -> Option<u64> {
    digits.iter().try_fold(0u64, |value, &digit| {
        value.checked_mul(10)?.checked_add(u64::from(digit - b'0'))
    })
}
