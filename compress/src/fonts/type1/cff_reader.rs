//! Test helper: a minimal CFF reader (INDEX, DICT) and Type 2 charstring interpreter.

use super::charstring::Ev;

pub(crate) fn rd16(d: &[u8], p: usize) -> usize {
    usize::from(d[p]) << 8 | usize::from(d[p + 1])
}

fn rd_off(d: &[u8], p: usize, size: usize) -> usize {
    d[p..p + size]
        .iter()
        .fold(0, |a, &b| a << 8 | usize::from(b))
}

/// Reads an INDEX at `p`: (items, position after it).
pub(crate) fn read_index(d: &[u8], p: usize) -> (Vec<Vec<u8>>, usize) {
    let count = rd16(d, p);
    if count == 0 {
        return (Vec::new(), p + 2);
    }
    let os = usize::from(d[p + 2]);
    let offs: Vec<usize> = (0..=count).map(|i| rd_off(d, p + 3 + i * os, os)).collect();
    let base = p + 3 + (count + 1) * os - 1;
    let items = offs
        .windows(2)
        .map(|w| d[base + w[0]..base + w[1]].to_vec())
        .collect();
    (items, base + offs[count])
}

/// Reads a DICT into (operator, operands) pairs; reals as f64.
pub(crate) fn read_dict(d: &[u8]) -> Vec<(u16, Vec<f64>)> {
    let (mut out, mut ops, mut i) = (Vec::new(), Vec::new(), 0);
    while i < d.len() {
        let b = d[i];
        i += 1;
        match b {
            28 => {
                ops.push(f64::from(i16::from_be_bytes([d[i], d[i + 1]])));
                i += 2;
            }
            29 => {
                ops.push(f64::from(i32::from_be_bytes([
                    d[i],
                    d[i + 1],
                    d[i + 2],
                    d[i + 3],
                ])));
                i += 4;
            }
            30 => {
                let mut s = String::new();
                'real: loop {
                    let byte = d[i];
                    i += 1;
                    for n in [byte >> 4, byte & 15] {
                        match n {
                            0..=9 => s.push((b'0' + n) as char),
                            10 => s.push('.'),
                            11 => s.push('e'),
                            12 => s.push_str("e-"),
                            14 => s.push('-'),
                            _ => break 'real,
                        }
                    }
                }
                ops.push(s.parse().expect("real"));
            }
            32..=246 => ops.push(f64::from(b) - 139.0),
            247..=250 => {
                ops.push((f64::from(b) - 247.0) * 256.0 + f64::from(d[i]) + 108.0);
                i += 1;
            }
            251..=254 => {
                ops.push(-(f64::from(b) - 251.0) * 256.0 - f64::from(d[i]) - 108.0);
                i += 1;
            }
            12 => {
                out.push((1200 + u16::from(d[i]), std::mem::take(&mut ops)));
                i += 1;
            }
            _ => out.push((u16::from(b), std::mem::take(&mut ops))),
        }
    }
    out
}

/// Runs a Type 2 charstring: (width or None, path events with flex as two curves).
pub(crate) fn run_t2(cs: &[u8]) -> (Option<f64>, Vec<Ev>, Option<Vec<f64>>) {
    let (mut st, mut ev, mut width, mut nstems, mut first) =
        (Vec::<f64>::new(), Vec::new(), None, 0, true);
    let (mut x, mut y, mut i) = (0.0, 0.0, 0);
    let mut take_width = |st: &mut Vec<f64>, even: bool, first: &mut bool| {
        if *first && (st.len() % 2 == 1) == even && !st.is_empty() {
            width = Some(st.remove(0));
        }
        *first = false;
    };
    let curve = |ev: &mut Vec<Ev>, x: &mut f64, y: &mut f64, d: [f64; 6]| {
        let (x1, y1) = (*x + d[0], *y + d[1]);
        let (x2, y2) = (x1 + d[2], y1 + d[3]);
        (*x, *y) = (x2 + d[4], y2 + d[5]);
        ev.push(Ev::Curve([x1, y1, x2, y2, *x, *y]));
    };
    while i < cs.len() {
        let b = cs[i];
        i += 1;
        match b {
            28 => {
                st.push(f64::from(i16::from_be_bytes([cs[i], cs[i + 1]])));
                i += 2;
                continue;
            }
            255 => {
                st.push(
                    f64::from(i32::from_be_bytes([cs[i], cs[i + 1], cs[i + 2], cs[i + 3]]))
                        / 65536.0,
                );
                i += 4;
                continue;
            }
            32..=246 => {
                st.push(f64::from(b) - 139.0);
                continue;
            }
            247..=250 => {
                st.push((f64::from(b) - 247.0) * 256.0 + f64::from(cs[i]) + 108.0);
                i += 1;
                continue;
            }
            251..=254 => {
                st.push(-(f64::from(b) - 251.0) * 256.0 - f64::from(cs[i]) - 108.0);
                i += 1;
                continue;
            }
            _ => {}
        }
        match b {
            1 | 3 | 18 | 23 => {
                take_width(&mut st, true, &mut first);
                nstems += st.len() / 2;
            }
            19 => {
                take_width(&mut st, true, &mut first);
                nstems += st.len() / 2;
                i += nstems.div_ceil(8);
            }
            4 | 22 => {
                take_width(&mut st, false, &mut first);
                if b == 4 {
                    y += st[0]
                } else {
                    x += st[0]
                }
                ev.push(Ev::Move(x, y));
            }
            21 => {
                take_width(&mut st, true, &mut first);
                (x, y) = (x + st[0], y + st[1]);
                ev.push(Ev::Move(x, y));
            }
            5 => {
                for p in st.chunks(2) {
                    (x, y) = (x + p[0], y + p[1]);
                    ev.push(Ev::Line(x, y));
                }
            }
            6 | 7 => {
                for (k, v) in st.iter().enumerate() {
                    if (k % 2 == 0) == (b == 6) {
                        x += v
                    } else {
                        y += v
                    }
                    ev.push(Ev::Line(x, y));
                }
            }
            8 => st.chunks(6).for_each(|c| {
                curve(
                    &mut ev,
                    &mut x,
                    &mut y,
                    [c[0], c[1], c[2], c[3], c[4], c[5]],
                )
            }),
            24 | 25 => {
                // rcurveline: curves then a line; rlinecurve: lines then a curve.
                let split = if b == 24 { st.len() - 2 } else { st.len() - 6 };
                let (head, tail) = st.split_at(split);
                let (curves, lines) = if b == 24 { (head, tail) } else { (tail, head) };
                if b == 25 {
                    for p in lines.chunks(2) {
                        (x, y) = (x + p[0], y + p[1]);
                        ev.push(Ev::Line(x, y));
                    }
                }
                for c in curves.chunks(6) {
                    curve(
                        &mut ev,
                        &mut x,
                        &mut y,
                        [c[0], c[1], c[2], c[3], c[4], c[5]],
                    );
                }
                if b == 24 {
                    (x, y) = (x + lines[0], y + lines[1]);
                    ev.push(Ev::Line(x, y));
                }
            }
            26 | 27 => {
                let lead = if st.len() % 4 == 1 { st.remove(0) } else { 0.0 };
                for (k, c) in st.chunks(4).enumerate() {
                    let l = if k == 0 { lead } else { 0.0 };
                    let d = if b == 26 {
                        [l, c[0], c[1], c[2], 0.0, c[3]]
                    } else {
                        [c[0], l, c[1], c[2], c[3], 0.0]
                    };
                    curve(&mut ev, &mut x, &mut y, d);
                }
            }
            30 | 31 => {
                let extra = if st.len() % 4 == 1 { st.pop() } else { None };
                let n = st.len() / 4;
                for (k, c) in st.chunks(4).enumerate() {
                    let last = if k + 1 == n {
                        extra.unwrap_or(0.0)
                    } else {
                        0.0
                    };
                    if (k % 2 == 0) == (b == 30) {
                        curve(&mut ev, &mut x, &mut y, [0.0, c[0], c[1], c[2], c[3], last]);
                    } else {
                        curve(&mut ev, &mut x, &mut y, [c[0], 0.0, c[1], c[2], last, c[3]]);
                    }
                }
            }
            12 if cs[i] == 35 => {
                i += 1;
                curve(
                    &mut ev,
                    &mut x,
                    &mut y,
                    [st[0], st[1], st[2], st[3], st[4], st[5]],
                );
                curve(
                    &mut ev,
                    &mut x,
                    &mut y,
                    [st[6], st[7], st[8], st[9], st[10], st[11]],
                );
            }
            14 => {
                take_width(&mut st, true, &mut first);
                return (width, ev, (!st.is_empty()).then_some(st));
            }
            _ => panic!("unexpected type 2 operator {b}"),
        }
        st.clear();
    }
    panic!("no endchar")
}
