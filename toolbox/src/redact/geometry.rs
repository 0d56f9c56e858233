//! The areas of one page and the tests that decide what they take: a glyph's box (a
//! parallelogram once through the text rendering matrix) by the share of it inside, an image's
//! or form's placement by whether it reaches an area at all, a path's box by whether it lies
//! wholly inside one.

use crate::geometry::{Matrix, Rect, apply};

/// A glyph goes when at least this share of its box lies in the areas (or its centre does).
pub const MIN_SHARE: f64 = 0.2;

/// Below this area (square points) a box is taken as a point: only its centre counts.
const TINY: f64 = 1e-9;

pub type Point = (f64, f64);

/// Four corners, in order around the shape.
pub type Quad = [Point; 4];

/// `rect` through `m`.
pub fn quad(m: Matrix, [x0, y0, x1, y1]: Rect) -> Quad {
    [(x0, y0), (x1, y0), (x1, y1), (x0, y1)].map(|p| apply(m, p))
}

/// The box around some points.
pub fn bounds(points: &[Point]) -> Rect {
    let mut out = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for &(x, y) in points {
        out = [out[0].min(x), out[1].min(y), out[2].max(x), out[3].max(y)];
    }
    out
}

/// The areas of one page, normalised, in its default user space. Many areas are indexed by
/// a grid, so that a page with thousands of hits still judges each glyph against a few.
#[derive(Debug, Clone, Default)]
pub struct Areas {
    rects: Vec<Rect>,
    grid: Option<Grid>,
}

/// Below this many areas every query looks at all of them.
const INDEXED: usize = 32;
/// Cells on each side of the grid.
const CELLS: usize = 32;

/// An area over more cells than this is not filed in them but looked at by every query,
/// which bounds the grid's memory whatever the areas.
const WIDE: usize = 64;

#[derive(Debug, Clone)]
struct Grid {
    bounds: Rect,
    /// Each cell's areas, row by row.
    cells: Vec<Vec<u32>>,
    /// Areas over too many cells.
    wide: Vec<u32>,
}

impl Grid {
    fn new(rects: &[Rect]) -> Grid {
        let mut bounds = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
        for r in rects {
            bounds = [
                bounds[0].min(r[0]),
                bounds[1].min(r[1]),
                bounds[2].max(r[2]),
                bounds[3].max(r[3]),
            ];
        }
        let mut grid = Grid {
            bounds,
            cells: vec![Vec::new(); CELLS * CELLS],
            wide: Vec::new(),
        };
        for (i, r) in rects.iter().enumerate() {
            let (columns, rows) = grid.span(r);
            if columns.clone().count() * rows.clone().count() > WIDE {
                grid.wide.push(i as u32);
                continue;
            }
            for row in rows {
                for column in columns.clone() {
                    grid.cells[row * CELLS + column].push(i as u32);
                }
            }
        }
        grid
    }

    /// The columns and rows of cells a box covers (clamped to the grid).
    fn span(
        &self,
        r: &Rect,
    ) -> (
        std::ops::RangeInclusive<usize>,
        std::ops::RangeInclusive<usize>,
    ) {
        let cell = |value: f64, low: f64, high: f64| {
            let share = if high > low {
                (value - low) / (high - low)
            } else {
                0.0
            };
            ((share * CELLS as f64).floor().max(0.0) as usize).min(CELLS - 1)
        };
        let [x0, y0, x1, y1] = self.bounds;
        (
            cell(r[0], x0, x1)..=cell(r[2], x0, x1),
            cell(r[1], y0, y1)..=cell(r[3], y0, y1),
        )
    }
}

impl Areas {
    pub fn new(rects: Vec<Rect>) -> Areas {
        let grid = (rects.len() > INDEXED).then(|| Grid::new(&rects));
        Areas { rects, grid }
    }

    pub fn rects(&self) -> &[Rect] {
        &self.rects
    }

    /// The areas that may share something with `bbox`, each once.
    fn near(&self, bbox: &Rect) -> Vec<&Rect> {
        let Some(grid) = &self.grid else {
            return self.rects.iter().filter(|r| overlap(r, bbox)).collect();
        };
        if !overlap(&grid.bounds, bbox) {
            return Vec::new();
        }
        let (columns, rows) = grid.span(bbox);
        let mut indices: Vec<u32> = grid.wide.clone();
        for row in rows {
            for column in columns.clone() {
                indices.extend_from_slice(&grid.cells[row * CELLS + column]);
            }
        }
        indices.sort_unstable();
        indices.dedup();
        indices
            .into_iter()
            .map(|i| &self.rects[i as usize])
            .filter(|r| overlap(r, bbox))
            .collect()
    }

    #[cfg(test)]
    fn contains(&self, (x, y): Point) -> bool {
        self.near(&[x, y, x, y]).iter().any(|r| inside(r, x, y))
    }

    /// Whether a glyph with this box goes: its centre inside an area, or [`MIN_SHARE`] of it
    /// inside the areas together. A box without area (a zero-width glyph, a zero font size)
    /// goes when its centre or any corner is inside.
    pub fn takes_glyph(&self, glyph: &Quad) -> bool {
        let bbox = bounds(glyph);
        let near = self.near(&bbox);
        if near.is_empty() {
            return false;
        }
        let centre = (
            (glyph[0].0 + glyph[2].0) / 2.0,
            (glyph[0].1 + glyph[2].1) / 2.0,
        );
        if near.iter().any(|r| inside(r, centre.0, centre.1)) {
            return true;
        }
        let whole = polygon_area(glyph);
        if whole < TINY {
            return glyph
                .iter()
                .any(|&(x, y)| near.iter().any(|r| inside(r, x, y)));
        }
        let covered: f64 = near.iter().map(|r| polygon_area(&clip(glyph, r))).sum();
        covered >= MIN_SHARE * whole
    }

    /// Whether anything of the shape reaches an area: a shared region with an area, or (for a
    /// flat shape) a point inside one.
    pub fn reaches(&self, shape: &Quad) -> bool {
        self.near(&bounds(shape)).iter().any(|r| {
            polygon_area(&clip(shape, r)) > TINY || shape.iter().any(|&(x, y)| inside(r, x, y))
        })
    }

    /// Whether a box lies wholly inside one area.
    pub fn holds(&self, bbox: &Rect) -> bool {
        self.near(bbox)
            .iter()
            .any(|r| bbox[0] >= r[0] && bbox[1] >= r[1] && bbox[2] <= r[2] && bbox[3] <= r[3])
    }

    /// Whether a box shares some of its surface (or, flat, a point) with an area.
    pub fn touches(&self, bbox: &Rect) -> bool {
        !self.near(bbox).is_empty()
    }
}

fn inside(r: &Rect, x: f64, y: f64) -> bool {
    x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3]
}

fn overlap(a: &Rect, b: &Rect) -> bool {
    a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}

/// The area of a simple polygon (shoelace formula), whatever its orientation.
fn polygon_area(points: &[Point]) -> f64 {
    let n = points.len();
    if n < 3 {
        return 0.0;
    }
    let twice: f64 = (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    (twice / 2.0).abs()
}

/// The part of a convex polygon inside `rect` (Sutherland-Hodgman, one rectangle edge at a
/// time).
fn clip(polygon: &[Point], rect: &Rect) -> Vec<Point> {
    let mut points = polygon.to_vec();
    // Each edge: which coordinate, the limit, and whether points must be above it.
    let edges = [
        (0, rect[0], true),
        (0, rect[2], false),
        (1, rect[1], true),
        (1, rect[3], false),
    ];
    for (axis, limit, above) in edges {
        if points.is_empty() {
            break;
        }
        let coord = |p: Point| if axis == 0 { p.0 } else { p.1 };
        let keeps = |p: Point| {
            if above {
                coord(p) >= limit
            } else {
                coord(p) <= limit
            }
        };
        let mut out = Vec::with_capacity(points.len() + 2);
        for i in 0..points.len() {
            let current = points[i];
            let previous = points[(i + points.len() - 1) % points.len()];
            let crossing = |a: Point, b: Point| {
                let t = (limit - coord(a)) / (coord(b) - coord(a));
                (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
            };
            match (keeps(previous), keeps(current)) {
                (true, true) => out.push(current),
                (true, false) => out.push(crossing(previous, current)),
                (false, true) => {
                    out.push(crossing(previous, current));
                    out.push(current);
                }
                (false, false) => {}
            }
        }
        points = out;
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyph(x0: f64, y0: f64, x1: f64, y1: f64) -> Quad {
        quad([1.0, 0.0, 0.0, 1.0, 0.0, 0.0], [x0, y0, x1, y1])
    }

    #[test]
    fn a_glyph_goes_by_its_centre_or_a_fifth_of_its_box() {
        let areas = Areas::new(vec![[10.0, 0.0, 20.0, 10.0]]);
        assert!(areas.takes_glyph(&glyph(12.0, 2.0, 18.0, 8.0)));
        // Centre at 10.5: inside.
        assert!(areas.takes_glyph(&glyph(9.0, 0.0, 12.0, 10.0)));
        // A quarter inside, centre outside.
        assert!(areas.takes_glyph(&glyph(5.0, 0.0, 13.0, 10.0)));
        // A tenth inside.
        assert!(!areas.takes_glyph(&glyph(1.0, 0.0, 11.0, 10.0)));
        assert!(!areas.takes_glyph(&glyph(30.0, 0.0, 40.0, 10.0)));
        // Flat: by its corners.
        assert!(areas.takes_glyph(&glyph(15.0, 5.0, 15.0, 5.0)));
    }

    #[test]
    fn a_turned_glyph_is_measured_as_turned() {
        let areas = Areas::new(vec![[0.0, 0.0, 10.0, 10.0]]);
        // Turned 45 degrees about the origin: its centre lands at x < 0.
        let c = std::f64::consts::FRAC_1_SQRT_2;
        let turned = quad([c, c, -c, c, 0.0, 0.0], [0.0, 0.0, 2.0, 20.0]);
        assert!(!areas.takes_glyph(&turned));
        assert!(areas.reaches(&turned));
        assert!(!areas.reaches(&glyph(11.0, 0.0, 12.0, 1.0)));
        assert!(areas.holds(&[1.0, 1.0, 9.0, 9.0]));
        assert!(!areas.holds(&[1.0, 1.0, 11.0, 9.0]));
    }

    #[test]
    fn many_areas_are_found_through_the_grid() {
        // A hundred 5 x 5 areas on a diagonal, and one wide one.
        let mut rects: Vec<Rect> = (0..100)
            .map(|i| {
                let v = f64::from(i) * 10.0;
                [v, v, v + 5.0, v + 5.0]
            })
            .collect();
        rects.push([0.0, 500.0, 1000.0, 502.0]);
        let areas = Areas::new(rects);
        assert!(areas.grid.is_some());
        assert!(areas.takes_glyph(&glyph(331.0, 331.0, 334.0, 334.0)));
        assert!(!areas.takes_glyph(&glyph(336.0, 331.0, 339.0, 334.0)));
        assert!(areas.takes_glyph(&glyph(900.0, 499.0, 903.0, 503.0)));
        assert!(areas.contains((995.0, 995.0)));
        assert!(!areas.contains((995.0, 5.0)));
        assert!(areas.holds(&[991.0, 991.0, 994.0, 994.0]));
    }
}
