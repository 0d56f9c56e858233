//! Where an image goes: the page's size and the matrix that draws the image's unit square
//! there, its EXIF orientation applied by the matrix (the samples are stored as they are).

use image::metadata::Orientation as Exif;

use super::{Layout, Orientation, PageSize};

/// Resolution in dots per inch, horizontal and vertical (of the image as stored).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dpi {
    pub x: f64,
    pub y: f64,
}

impl Dpi {
    /// What an image without a recorded resolution is taken to have: a pixel per point.
    pub const DEFAULT: Dpi = Dpi { x: 72.0, y: 72.0 };

    /// A recorded resolution, unless it is not one (zero, below a dot per inch, absurd).
    pub fn new(x: f64, y: f64) -> Option<Dpi> {
        let fits = |value: f64| (1.0..=100_000.0).contains(&value);
        (fits(x) && fits(y)).then_some(Dpi { x, y })
    }
}

/// The largest page side readers accept (Acrobat's limit, PDF 1.7 annex C), in points.
const MAX_SIDE: f64 = 14_400.0;
/// The smallest.
const MIN_SIDE: f64 = 3.0;

/// ISO A4 and US Letter, portrait, in points.
const A4: (f64, f64) = (210.0 / 25.4 * 72.0, 297.0 / 25.4 * 72.0);
const LETTER: (f64, f64) = (612.0, 792.0);

/// A page and the image on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// Page width and height, points.
    pub page: (f64, f64),
    /// The `cm` operands that map the image's unit square onto its box on the page.
    pub matrix: [f64; 6],
}

/// The paper size of `size`, portrait; None for Fit.
fn paper(size: PageSize) -> Option<(f64, f64)> {
    match size {
        PageSize::Fit => None,
        PageSize::A4 => Some(A4),
        PageSize::Letter => Some(LETTER),
    }
}

/// Whether the margin leaves room on the paper (for Fit it is not used).
pub fn margin_fits(layout: &Layout) -> bool {
    let Some((width, _)) = paper(layout.size) else {
        return true;
    };
    let margin = f64::from(layout.margin);
    margin.is_finite() && margin >= 0.0 && width - 2.0 * margin >= MIN_SIDE
}

/// Whether an orientation shows the image turned a quarter (its width along the page's height).
fn turned(exif: Exif) -> bool {
    matches!(
        exif,
        Exif::Rotate90 | Exif::Rotate270 | Exif::Rotate90FlipH | Exif::Rotate270FlipH
    )
}

/// Places an image of `pixels` (width, height as stored) at `dpi`, shown as `exif` says.
pub fn place(pixels: (u32, u32), dpi: Dpi, exif: Exif, layout: &Layout) -> Placement {
    let natural = (
        f64::from(pixels.0) * 72.0 / dpi.x,
        f64::from(pixels.1) * 72.0 / dpi.y,
    );
    let shown = if turned(exif) {
        (natural.1, natural.0)
    } else {
        natural
    };
    let Some((width, height)) = paper(layout.size) else {
        let grow = (MIN_SIDE / shown.0.min(shown.1)).max(1.0);
        let scale = grow.min(MAX_SIDE / shown.0.max(shown.1));
        let page = (shown.0 * scale, shown.1 * scale);
        return Placement {
            page,
            matrix: matrix(exif, (0.0, 0.0), page),
        };
    };
    let margin = f64::from(layout.margin);
    let fit = |page: (f64, f64)| {
        ((page.0 - 2.0 * margin) / shown.0).min((page.1 - 2.0 * margin) / shown.1)
    };
    let portrait = (width, height);
    let landscape = (height, width);
    let page = match layout.orientation {
        Orientation::Portrait => portrait,
        Orientation::Landscape => landscape,
        Orientation::Auto if fit(landscape) > fit(portrait) => landscape,
        Orientation::Auto => portrait,
    };
    let scale = fit(page);
    let size = (shown.0 * scale, shown.1 * scale);
    let origin = ((page.0 - size.0) / 2.0, (page.1 - size.1) / 2.0);
    Placement {
        page,
        matrix: matrix(exif, origin, size),
    }
}

/// The matrix that draws the unit square (the stored image, its first row at the top) into the
/// box at `origin` of `size` as it is shown under `exif`.
fn matrix(exif: Exif, origin: (f64, f64), size: (f64, f64)) -> [f64; 6] {
    let ((x, y), (w, h)) = (origin, size);
    match exif {
        Exif::NoTransforms => [w, 0.0, 0.0, h, x, y],
        Exif::FlipHorizontal => [-w, 0.0, 0.0, h, x + w, y],
        Exif::Rotate180 => [-w, 0.0, 0.0, -h, x + w, y + h],
        Exif::FlipVertical => [w, 0.0, 0.0, -h, x, y + h],
        // EXIF 5: transposed (the first row shown as the left column, top down).
        Exif::Rotate90FlipH => [0.0, -h, -w, 0.0, x + w, y + h],
        // EXIF 6: turned a quarter clockwise (the first row shown as the right column).
        Exif::Rotate90 => [0.0, -h, w, 0.0, x, y + h],
        // EXIF 7: transversed.
        Exif::Rotate270FlipH => [0.0, h, w, 0.0, x, y],
        // EXIF 8: turned a quarter counter-clockwise.
        Exif::Rotate270 => [0.0, h, -w, 0.0, x + w, y],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(size: PageSize, orientation: Orientation, margin: f32) -> Layout {
        Layout {
            size,
            orientation,
            margin,
        }
    }

    /// Where the matrix sends a point of the unit square.
    fn apply(m: [f64; 6], (u, v): (f64, f64)) -> (f64, f64) {
        (m[0] * u + m[2] * v + m[4], m[1] * u + m[3] * v + m[5])
    }

    fn near(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6
    }

    #[test]
    fn every_orientation_shows_the_stored_top_left_corner_where_exif_says() {
        // The stored top-left pixel is (0, 1) in the unit square; where it is shown, in a
        // 2 x 1 box at the origin, for EXIF 1 to 8.
        let shown = [
            (0.0, 1.0),
            (2.0, 1.0),
            (2.0, 0.0),
            (0.0, 0.0),
            (0.0, 1.0),
            (2.0, 1.0),
            (2.0, 0.0),
            (0.0, 0.0),
        ];
        for (code, corner) in (1..=8).zip(shown) {
            let exif = Exif::from_exif(code).unwrap_or(Exif::NoTransforms);
            let m = matrix(exif, (0.0, 0.0), (2.0, 1.0));
            assert!(near(apply(m, (0.0, 1.0)), corner), "EXIF {code}: {m:?}");
            // The whole square lands on the box.
            let xs = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map(|p| apply(m, p));
            let max = xs
                .iter()
                .fold((0.0f64, 0.0f64), |a, p| (a.0.max(p.0), a.1.max(p.1)));
            assert!(near(max, (2.0, 1.0)), "EXIF {code}: {xs:?}");
        }
    }

    #[test]
    fn paper_keeps_the_margins_and_auto_turns_the_page_for_wide_images() {
        let wide = place(
            (400, 200),
            Dpi::DEFAULT,
            Exif::NoTransforms,
            &layout(PageSize::A4, Orientation::Auto, 36.0),
        );
        assert!(wide.page.0 > wide.page.1);
        assert!((wide.matrix[4] - 36.0).abs() < 1e-6);
        assert!((wide.matrix[0] - (A4.1 - 72.0)).abs() < 1e-6);
        let turned = place(
            (400, 200),
            Dpi::DEFAULT,
            Exif::Rotate90,
            &layout(PageSize::Letter, Orientation::Auto, 0.0),
        );
        assert_eq!(turned.page, LETTER);
        let fit = place(
            (600, 300),
            Dpi::new(300.0, 150.0).unwrap_or(Dpi::DEFAULT),
            Exif::NoTransforms,
            &layout(PageSize::Fit, Orientation::Landscape, 50.0),
        );
        assert!(near(fit.page, (144.0, 144.0)));
        let huge = place(
            (40_000, 100),
            Dpi::DEFAULT,
            Exif::NoTransforms,
            &layout(PageSize::Fit, Orientation::Auto, 0.0),
        );
        assert!(near(huge.page, (MAX_SIDE, 36.0)));
    }
}
