//! Tesseract engines inside a worker: one per language combination, loaded once (init costs
//! 100-300 ms) and reused, fed raw pixels (never a re-encoded file).

use std::path::PathBuf;

use leptess::tesseract::TessApi;

use crate::{
    pdf::render::Pixels,
    workers::protocol::{Failure, FailureKind},
};

/// Engines kept loaded at once; each holds its models in memory.
const KEEP: usize = 3;

pub struct Tesseract {
    tessdata: PathBuf,
    /// Most recently used last.
    engines: Vec<(String, TessApi)>,
}

impl Tesseract {
    pub fn new(tessdata: PathBuf) -> Self {
        Self {
            tessdata,
            engines: Vec::new(),
        }
    }

    /// Loads the engine for `lang` now, so the first request does not pay for it.
    pub fn preload(&mut self, lang: &str) -> Result<(), Failure> {
        self.engine(lang).map(|_| ())
    }

    /// Text of `pixels`; `dpi` when known lets Tesseract size its text models correctly.
    pub fn recognize(
        &mut self,
        lang: &str,
        pixels: &Pixels,
        dpi: Option<u32>,
    ) -> Result<String, Failure> {
        let engine = self.engine(lang)?;
        let width = pixels.width as i32;
        engine
            .raw
            .set_image(
                &pixels.data,
                width,
                pixels.height as i32,
                i32::from(pixels.channels),
                width * i32::from(pixels.channels),
            )
            .map_err(|e| {
                Failure::new(
                    FailureKind::Engine,
                    format!("tesseract refused the image: {e:?}"),
                )
            })?;
        if let Some(dpi) = dpi {
            engine.set_source_resolution(dpi as i32);
        }
        // leptess unwraps the null that TessBaseAPIGetUTF8Text returns when recognition fails
        // inside Tesseract; in a worker under its memory limit that means memory ran out: the
        // input's size, not an engine bug. The engine is dropped, so the next job starts clean.
        let answer =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.get_utf8_text()));
        let Ok(text) = answer else {
            self.engines.retain(|(l, _)| l != lang);
            return Err(Failure::new(
                FailureKind::OverLimit,
                "Tesseract ran out of memory on this image: send a smaller or lower-resolution \
                 image",
            ));
        };
        text.map_err(|e| {
            Failure::new(
                FailureKind::Engine,
                format!("tesseract returned invalid text: {e}"),
            )
        })
    }

    /// The words of `pixels` with their boxes in pixels (left, top, width, height), read from
    /// Tesseract's TSV output (level 5 rows are words).
    pub fn words(
        &mut self,
        lang: &str,
        pixels: &Pixels,
        dpi: Option<u32>,
    ) -> Result<Vec<(String, [u32; 4])>, Failure> {
        // Recognition runs once, inside recognize(); the TSV reads the same result.
        self.recognize(lang, pixels, dpi)?;
        let engine = self.engine(lang)?;
        // leptess unwraps a null answer here too (see recognize).
        let answer =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.get_tsv_text(0)));
        let Ok(tsv) = answer else {
            self.engines.retain(|(l, _)| l != lang);
            return Err(Failure::new(
                FailureKind::OverLimit,
                "Tesseract ran out of memory on this page",
            ));
        };
        let tsv = tsv.map_err(|e| {
            Failure::new(
                FailureKind::Engine,
                format!("tesseract returned invalid text: {e}"),
            )
        })?;
        Ok(tsv_words(&tsv))
    }

    fn engine(&mut self, lang: &str) -> Result<&mut TessApi, Failure> {
        if let Some(at) = self.engines.iter().position(|(l, _)| l == lang) {
            let entry = self.engines.remove(at);
            self.engines.push(entry);
        } else {
            let path = self.tessdata.to_string_lossy().into_owned();
            let mut api = TessApi::new(Some(&path), lang).map_err(|e| {
                Failure::new(
                    FailureKind::Engine,
                    format!("tesseract could not load {lang} from {path}: {e}"),
                )
            })?;
            // Automatic page segmentation, as the tesseract CLI does: the API's default (a
            // single block) reads two-column pages across the columns.
            api.raw
                .set_variable(c"tessedit_pageseg_mode", c"3")
                .map_err(|_| Failure::new(FailureKind::Engine, "tesseract refused psm 3"))?;
            if self.engines.len() >= KEEP {
                self.engines.remove(0);
            }
            self.engines.push((lang.to_owned(), api));
        }
        let (_, api) = self
            .engines
            .last_mut()
            .ok_or_else(|| Failure::new(FailureKind::Engine, "no tesseract engine"))?;
        Ok(api)
    }
}

/// Words of a Tesseract TSV page: `level page block par line word left top width height conf
/// text`, words at level 5.
fn tsv_words(tsv: &str) -> Vec<(String, [u32; 4])> {
    tsv.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            if cells.len() < 12 || cells[0] != "5" {
                return None;
            }
            let number = |i: usize| cells[i].parse::<u32>().ok();
            let text = cells[11].trim();
            let rect = [number(6)?, number(7)?, number(8)?, number(9)?];
            (!text.is_empty()).then(|| (text.to_owned(), rect))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn tsv_rows_of_level_five_are_words() {
        let tsv = "1\t1\t0\t0\t0\t0\t0\t0\t100\t50\t-1\t\n\
                   5\t1\t1\t1\t1\t1\t10\t20\t30\t12\t96.5\tHello\n\
                   5\t1\t1\t1\t1\t2\t45\t20\t25\t12\t91\t \n";
        assert_eq!(
            super::tsv_words(tsv),
            vec![("Hello".to_owned(), [10, 20, 30, 12])]
        );
    }
}
