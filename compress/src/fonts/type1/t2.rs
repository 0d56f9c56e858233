//! Type 2 charstring encoder: an [`Outline`] written with the compact Type 2 operators
//! (h/v line and curve forms, operand runs, stems up front, hintmask for hint replacement).

use super::charstring::{Ev, Outline};
use super::t2_path::{Seg, write_segs};

/// Most operands one operator takes here (Type 2 allows 48; keep room for the width).
pub(crate) const MAX_ARGS: usize = 44;

/// 16.16 fixed value of `v`.
fn fixed(v: f64) -> i64 {
    (v * 65536.0).round() as i64
}

/// Appends one Type 2 operand given in 16.16 fixed.
fn push_num(out: &mut Vec<u8>, f: i64) -> Result<(), &'static str> {
    if f % 65536 == 0 {
        let n = f / 65536;
        match n {
            -107..=107 => out.push((n + 139) as u8),
            108..=1131 => {
                let m = n - 108;
                out.extend([(m / 256 + 247) as u8, (m % 256) as u8]);
            }
            -1131..=-108 => {
                let m = -n - 108;
                out.extend([(m / 256 + 251) as u8, (m % 256) as u8]);
            }
            -32768..=32767 => {
                out.push(28);
                out.extend((n as i16).to_be_bytes());
            }
            _ => return Err("coordinate out of Type 2 range"),
        }
    } else {
        let v = i32::try_from(f).map_err(|_| "coordinate out of Type 2 range")?;
        out.push(255);
        out.extend(v.to_be_bytes());
    }
    Ok(())
}

pub(crate) struct Enc {
    out: Vec<u8>,
    /// Width operand still to be written before the first stack-clearing operator.
    width: Option<i64>,
}

impl Enc {
    pub(crate) fn op(&mut self, args: &[i64], op: &[u8]) -> Result<(), &'static str> {
        if let Some(w) = self.width.take() {
            push_num(&mut self.out, w)?;
        }
        for &a in args {
            push_num(&mut self.out, a)?;
        }
        self.out.extend_from_slice(op);
        Ok(())
    }
}

fn dedup_sorted(mut v: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
    v.sort_unstable();
    v.dedup();
    v
}

/// Writes stems as edge deltas, in operator chunks that each restart at 0.
fn write_stems(enc: &mut Enc, stems: &[(i64, i64)], op: u8) -> Result<(), &'static str> {
    for chunk in stems.chunks(MAX_ARGS / 2) {
        let mut args = Vec::with_capacity(chunk.len() * 2);
        let mut edge = 0;
        for &(p, d) in chunk {
            args.extend([p - edge, d]);
            edge = p + d;
        }
        enc.op(&args, &[op])?;
    }
    Ok(())
}

/// Encodes `o` as a Type 2 charstring; the width is written when it differs from `default_w`
/// (as `width - nominal_w`).
pub(crate) fn encode(o: &Outline, default_w: f64, nominal_w: f64) -> Result<Vec<u8>, &'static str> {
    let width = fixed(o.width);
    let mut enc = Enc {
        out: Vec::new(),
        width: (width != fixed(default_w)).then(|| width - fixed(nominal_w)),
    };
    let mut hs = Vec::new();
    let mut vs = Vec::new();
    let mut seen_path = false;
    let mut replaced = false;
    for ev in &o.events {
        match ev {
            Ev::HStem(p, d) => {
                hs.push((fixed(*p), fixed(*d)));
                replaced |= seen_path;
            }
            Ev::VStem(p, d) => {
                vs.push((fixed(*p), fixed(*d)));
                replaced |= seen_path;
            }
            Ev::Move(..) | Ev::Line(..) | Ev::Curve(_) | Ev::Flex(..) => seen_path = true,
            Ev::NewHints | Ev::Close => {}
        }
    }
    let (mut hs, mut vs) = (dedup_sorted(hs), dedup_sorted(vs));
    if hs.len() + vs.len() > 96 {
        // Over the Type 2 hint limit: hints only help rasterization, drop them.
        hs.clear();
        vs.clear();
    }
    let use_mask = replaced && !(hs.is_empty() && vs.is_empty());
    write_stems(&mut enc, &hs, if use_mask { 18 } else { 1 })?;
    write_stems(&mut enc, &vs, if use_mask { 23 } else { 3 })?;
    let nstems = hs.len() + vs.len();
    let mut active = vec![false; nstems];
    let mut dirty = use_mask;
    let mut last_mask: Option<Vec<u8>> = None;

    let (mut cx, mut cy) = (0i64, 0i64);
    let mut need_move = true;
    let mut segs: Vec<Seg> = Vec::new();
    for ev in &o.events {
        let is_draw = matches!(ev, Ev::Line(..) | Ev::Curve(_) | Ev::Flex(..));
        if (is_draw || matches!(ev, Ev::Move(..))) && dirty {
            write_segs(&mut enc, &segs)?;
            segs.clear();
            let mut mask = vec![0u8; nstems.div_ceil(8)];
            for (k, _) in active.iter().enumerate().filter(|(_, a)| **a) {
                mask[k / 8] |= 0x80 >> (k % 8);
            }
            if last_mask.as_ref() != Some(&mask) {
                enc.op(&[], &[19])?;
                enc.out.extend(&mask);
                last_mask = Some(mask);
            }
            dirty = false;
        }
        if is_draw && need_move {
            write_segs(&mut enc, &segs)?;
            segs.clear();
            enc.op(&[0, 0], &[21])?;
            need_move = false;
        }
        match ev {
            Ev::HStem(p, d) | Ev::VStem(p, d) => {
                let key = (fixed(*p), fixed(*d));
                let k = match ev {
                    Ev::HStem(..) => hs.binary_search(&key).ok(),
                    _ => vs.binary_search(&key).ok().map(|k| k + hs.len()),
                };
                if let Some(k) = k.filter(|_| use_mask) {
                    dirty |= !active[k];
                    active[k] = true;
                }
            }
            Ev::NewHints => {
                if use_mask && active.iter().any(|a| *a) {
                    active.iter_mut().for_each(|a| *a = false);
                    dirty = true;
                }
            }
            Ev::Move(x, y) => {
                write_segs(&mut enc, &segs)?;
                segs.clear();
                let (dx, dy) = (fixed(*x) - cx, fixed(*y) - cy);
                (cx, cy) = (cx + dx, cy + dy);
                match (dx, dy) {
                    (0, _) => enc.op(&[dy], &[4])?,
                    (_, 0) => enc.op(&[dx], &[22])?,
                    _ => enc.op(&[dx, dy], &[21])?,
                }
                need_move = false;
            }
            Ev::Line(x, y) => {
                let (dx, dy) = (fixed(*x) - cx, fixed(*y) - cy);
                (cx, cy) = (cx + dx, cy + dy);
                segs.push(Seg::Line(dx, dy));
            }
            Ev::Curve(p) => {
                let mut d = [0i64; 6];
                for k in 0..3 {
                    d[2 * k] = fixed(p[2 * k]) - cx;
                    d[2 * k + 1] = fixed(p[2 * k + 1]) - cy;
                    (cx, cy) = (cx + d[2 * k], cy + d[2 * k + 1]);
                }
                segs.push(Seg::Curve(d));
            }
            Ev::Flex(p, fd) => {
                write_segs(&mut enc, &segs)?;
                segs.clear();
                let mut args = Vec::with_capacity(13);
                for k in 0..6 {
                    let (dx, dy) = (fixed(p[2 * k]) - cx, fixed(p[2 * k + 1]) - cy);
                    (cx, cy) = (cx + dx, cy + dy);
                    args.extend([dx, dy]);
                }
                args.push(fixed(*fd));
                enc.op(&args, &[12, 35])?;
            }
            Ev::Close => need_move = true,
        }
    }
    write_segs(&mut enc, &segs)?;
    match o.seac {
        Some(s) => enc.op(&s.map(fixed), &[14])?,
        None => enc.op(&[], &[14])?,
    }
    Ok(enc.out)
}
