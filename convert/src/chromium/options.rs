//! The print options of html-to-pdf and their translation into `Page.printToPDF` parameters.

use serde_json::{Value, json};

use crate::ConvertError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paper {
    #[default]
    A4,
    Letter,
    Legal,
    A3,
    A5,
}

impl Paper {
    /// Width and height in inches, portrait (what `Page.printToPDF` takes).
    pub fn inches(self) -> (f64, f64) {
        const MM: f64 = 1.0 / 25.4;
        match self {
            Paper::A4 => (210.0 * MM, 297.0 * MM),
            Paper::A3 => (297.0 * MM, 420.0 * MM),
            Paper::A5 => (148.0 * MM, 210.0 * MM),
            Paper::Letter => (8.5, 11.0),
            Paper::Legal => (8.5, 14.0),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrintOptions {
    pub paper: Paper,
    pub landscape: bool,
    /// The same margin on all four sides, in millimetres, 0 to 50.
    pub margin_mm: f32,
    /// Print background colours and images (browsers leave them out of print by default).
    pub background: bool,
    /// Zoom of the content, 0.1 to 2.
    pub scale: f32,
    /// A tagged PDF (the structure a screen reader follows). Chromium builds it from the page's
    /// accessibility tree, which makes printing a long table three to four times slower.
    pub tagged: bool,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            paper: Paper::A4,
            landscape: false,
            margin_mm: 10.0,
            background: true,
            scale: 1.0,
            tagged: false,
        }
    }
}

pub const MAX_MARGIN_MM: f32 = 50.0;

impl PrintOptions {
    pub fn validate(&self) -> Result<(), ConvertError> {
        if !self.margin_mm.is_finite() || !(0.0..=MAX_MARGIN_MM).contains(&self.margin_mm) {
            return Err(ConvertError::BadOptions(format!(
                "the margin must be between 0 and {MAX_MARGIN_MM} mm (it was {}); choose a smaller margin",
                self.margin_mm
            )));
        }
        if !self.scale.is_finite() || !(0.1..=2.0).contains(&self.scale) {
            return Err(ConvertError::BadOptions(format!(
                "the scale must be between 0.1 and 2 (it was {}); 1 prints at the page's own size",
                self.scale
            )));
        }
        Ok(())
    }

    /// The parameters of `Page.printToPDF`; the PDF comes back as a stream read with `IO.read`.
    pub fn print_params(&self) -> Value {
        let (width, height) = self.paper.inches();
        let margin = f64::from(self.margin_mm) / 25.4;
        json!({
            "paperWidth": width,
            "paperHeight": height,
            "landscape": self.landscape,
            "marginTop": margin,
            "marginBottom": margin,
            "marginLeft": margin,
            "marginRight": margin,
            "printBackground": self.background,
            "scale": self.scale,
            "preferCSSPageSize": false,
            "displayHeaderFooter": false,
            "generateTaggedPDF": self.tagged,
            "transferMode": "ReturnAsStream",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_and_scales_out_of_range_are_refused() {
        let good = PrintOptions::default();
        assert!(good.validate().is_ok());
        for margin in [-1.0, 50.5, f32::NAN] {
            let options = PrintOptions {
                margin_mm: margin,
                ..good
            };
            assert!(matches!(
                options.validate(),
                Err(ConvertError::BadOptions(_))
            ));
        }
        for scale in [0.0, 2.1, f32::INFINITY] {
            let options = PrintOptions { scale, ..good };
            assert!(matches!(
                options.validate(),
                Err(ConvertError::BadOptions(_))
            ));
        }
    }

    #[test]
    fn letter_is_eight_and_a_half_by_eleven_inches() {
        let params = PrintOptions {
            paper: Paper::Letter,
            ..PrintOptions::default()
        }
        .print_params();
        assert_eq!(params["paperWidth"], 8.5);
        assert_eq!(params["paperHeight"], 11.0);
    }
}
