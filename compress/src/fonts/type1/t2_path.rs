//! Type 2 path operators: picks the shortest operator forms for runs of lines and curves
//! (h/v lines, hv/vh chains with a final odd operand, hh/vv runs with a leading operand,
//! rrcurveto runs, rcurveline, rlinecurve).

use super::t2::{Enc, MAX_ARGS};

/// A path segment in relative 16.16 deltas.
pub(crate) enum Seg {
    Line(i64, i64),
    Curve([i64; 6]),
}

/// True when a curve has a 4-operand form (hv/vh/hh/vv).
fn short_form(c: &[i64; 6]) -> bool {
    let [a, b, _, _, e, f] = *c;
    (a == 0 || b == 0) && (e == 0 || f == 0)
}

/// Writes a run of lines and curves.
pub(crate) fn write_segs(enc: &mut Enc, segs: &[Seg]) -> Result<(), &'static str> {
    let mut i = 0;
    while i < segs.len() {
        match &segs[i] {
            Seg::Line(dx, dy) if *dx == 0 || *dy == 0 => {
                // Alternating horizontal / vertical lines.
                let horizontal = *dy == 0;
                let mut args = Vec::new();
                let mut want_h = horizontal;
                while let Some(Seg::Line(dx, dy)) = segs.get(i) {
                    let v = match (want_h, *dx == 0, *dy == 0) {
                        (true, _, true) => *dx,
                        (false, true, _) => *dy,
                        _ => break,
                    };
                    if args.len() >= MAX_ARGS {
                        break;
                    }
                    args.push(v);
                    want_h = !want_h;
                    i += 1;
                }
                enc.op(&args, &[if horizontal { 6 } else { 7 }])?;
            }
            Seg::Line(..) => {
                let mut args = Vec::new();
                while let Some(Seg::Line(dx, dy)) = segs.get(i) {
                    if *dx == 0 || *dy == 0 || args.len() + 2 > MAX_ARGS {
                        break;
                    }
                    args.extend([*dx, *dy]);
                    i += 1;
                }
                // rlinecurve: the lines followed by one general curve.
                if let Some(Seg::Curve(c)) = segs.get(i)
                    && !short_form(c)
                    && args.len() + 6 <= MAX_ARGS
                {
                    args.extend_from_slice(c);
                    i += 1;
                    enc.op(&args, &[25])?;
                } else {
                    enc.op(&args, &[5])?;
                }
            }
            Seg::Curve(_) => i = write_curves(enc, segs, i)?,
        }
    }
    Ok(())
}

/// hv / vh chain from `segs[i]`: curves alternately starting vertical and horizontal, each
/// ending perpendicular, the last one possibly ending anywhere (one extra operand).
fn chain(segs: &[Seg], mut i: usize, mut vertical: bool, args: &mut Vec<i64>) -> usize {
    while let Some(Seg::Curve([a, b, c, d, e, f])) = segs.get(i) {
        let (starts, ends) = if vertical {
            (*a == 0, *f == 0)
        } else {
            (*b == 0, *e == 0)
        };
        if !starts || args.len() + 5 > MAX_ARGS {
            break;
        }
        if vertical {
            args.extend([*b, *c, *d, *e]);
        } else {
            args.extend([*a, *c, *d, *f]);
        }
        i += 1;
        if !ends {
            args.push(if vertical { *f } else { *e });
            break;
        }
        vertical = !vertical;
    }
    i
}

/// Writes curves starting at `segs[i]`; returns the index after the last one written.
fn write_curves(enc: &mut Enc, segs: &[Seg], i: usize) -> Result<usize, &'static str> {
    let Some(Seg::Curve(c)) = segs.get(i) else {
        return Ok(i);
    };
    let [a, b, _, _, e, f] = *c;
    let mut args = Vec::new();
    // Perpendicular start and end: hv/vh chain.
    if (a == 0 && f == 0) || (b == 0 && e == 0) {
        let vertical = a == 0 && f == 0;
        let next = chain(segs, i, vertical, &mut args);
        enc.op(&args, &[if vertical { 30 } else { 31 }])?;
        return Ok(next);
    }
    // Parallel end (vv / hh runs; the first curve may start off-axis: one leading operand).
    if e == 0 || f == 0 {
        let vv = e == 0;
        let lead = if vv { a } else { b };
        if lead != 0 {
            args.push(lead);
        }
        let mut j = i;
        while let Some(Seg::Curve([a, b, c, d, e, f])) = segs.get(j) {
            let (off, end) = if vv { (*a, *e) } else { (*b, *f) };
            if (j > i && off != 0) || end != 0 || args.len() + 4 > MAX_ARGS {
                break;
            }
            args.extend(if vv {
                [*b, *c, *d, *f]
            } else {
                [*a, *c, *d, *e]
            });
            j += 1;
        }
        enc.op(&args, &[if vv { 26 } else { 27 }])?;
        return Ok(j);
    }
    // Perpendicular start only: hv/vh with the extra final operand.
    if a == 0 || b == 0 {
        let next = chain(segs, i, a == 0, &mut args);
        enc.op(&args, &[if a == 0 { 30 } else { 31 }])?;
        return Ok(next);
    }
    let mut j = i;
    while let Some(Seg::Curve(c)) = segs.get(j) {
        if (j > i && short_form(c)) || args.len() + 6 > MAX_ARGS {
            break;
        }
        args.extend_from_slice(c);
        j += 1;
    }
    // rcurveline: the curves followed by one line.
    if let Some(Seg::Line(dx, dy)) = segs.get(j)
        && args.len() + 2 <= MAX_ARGS
    {
        args.extend([*dx, *dy]);
        enc.op(&args, &[24])?;
        return Ok(j + 1);
    }
    enc.op(&args, &[8])?;
    Ok(j)
}
