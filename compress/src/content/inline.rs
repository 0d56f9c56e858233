//! Inline images (`BI` … `ID` data `EI`) as lopdf reads them: the data sized from the image's
//! dictionary where lopdf can size it, else skipped to the first `EI` between white space.

use lopdf::content::Operation;
use lopdf::{Dictionary, Object, Stream};

use super::{MAX_NESTING_DEPTH, Parser, Step, Stop, is_whitespace};

impl Parser<'_> {
    /// `BI` (taken), the image's dictionary, `ID`, its data and `EI`: one `BI` operation
    /// holding the image as a stream. lopdf commits to an inline image at `BI`: where it
    /// cannot read one it fails the whole stream, and where it cannot size the data (a filter,
    /// a named colour space) it skips to the first `EI` between white space and gives the
    /// operation no operand.
    pub(super) fn inline_image(&mut self) -> Step<Option<Operation>> {
        let dict = self.entries(MAX_NESTING_DEPTH)?;
        if !self.eat(b"ID") {
            return Err(Stop::Defer);
        }
        // One white-space character, a CR LF pair counting as one, before the data.
        if !self.eol() && self.peek().is_some_and(is_whitespace) {
            self.at += 1;
        }
        let operands = match inline_data_len(&dict).and_then(|len| self.rest().get(..len)) {
            Some(data) => {
                let image = (self.keep)(b"BI").then(|| Stream::new(dict, data.to_vec()));
                self.at += data.len();
                self.content_space();
                if !self.eat(b"EI") {
                    return Err(Stop::Defer);
                }
                image.map(Object::Stream).into_iter().collect()
            }
            None => {
                let rest = self.rest();
                let end = rest.windows(3).enumerate().position(|(i, w)| {
                    is_whitespace(w[0])
                        && &w[1..] == b"EI"
                        && rest.get(i + 3).is_none_or(|&c| is_whitespace(c))
                });
                self.at += end.ok_or(Stop::Defer)? + 3;
                Vec::new()
            }
        };
        self.content_space();
        Ok((self.keep)(b"BI").then(|| Operation {
            operator: String::from("BI"),
            operands,
        }))
    }
}

/// Bytes of an inline image's data as lopdf sizes it: unfiltered, of a device or indexed
/// colour space (or a mask), abbreviated keys first; `None` where lopdf skips to `EI` instead.
fn inline_data_len(dict: &Dictionary) -> Option<usize> {
    let get = |short: &[u8], long: &[u8]| dict.get(short).or_else(|_| dict.get(long)).ok();
    let size = |short: &[u8], long: &[u8]| -> Option<Option<usize>> {
        match get(short, long) {
            None => Some(None),
            Some(value) => usize::try_from(value.as_i64().ok()?).ok().map(Some),
        }
    };
    let width = size(b"W", b"Width")??;
    let height = size(b"H", b"Height")??;
    let mask = get(b"IM", b"ImageMask").and_then(|o| o.as_bool().ok()) == Some(true);
    let bpc = match size(b"BPC", b"BitsPerComponent")? {
        Some(bpc) => bpc,
        // An image mask has one bit per sample, so BitsPerComponent is optional for it.
        None if mask => 1,
        None => return None,
    };
    let colours = if mask {
        1
    } else {
        match get(b"CS", b"ColorSpace")? {
            Object::Array(items)
                if matches!(
                    items.first().map(Object::as_name),
                    Some(Ok(b"Indexed" | b"I"))
                ) =>
            {
                1
            }
            space => match space.as_name().ok()? {
                b"DeviceGray" | b"G" | b"Gray" => 1,
                b"DeviceRGB" | b"RGB" => 3,
                b"DeviceRGBA" | b"RGBA" | b"DeviceCMYK" | b"CMYK" => 4,
                _ => return None,
            },
        }
    };
    if get(b"F", b"Filter").is_some() {
        return None;
    }
    bpc.checked_mul(colours)
        .and_then(|bits| width.checked_mul(bits))
        .and_then(|row_bits| row_bits.div_ceil(8).checked_mul(height))
}
