//! Type 1 charstring interpreter: runs a glyph's program (subroutines inlined, OtherSubrs
//! 0-3 for flex and hint replacement) into an outline in absolute coordinates.

/// One drawing or hinting event; coordinates are absolute glyph space.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ev {
    /// Horizontal stem: bottom edge y, height dy (ghost stems keep dy -20/-21).
    HStem(f64, f64),
    /// Vertical stem: left edge x, width dx.
    VStem(f64, f64),
    /// Hint replacement: the stems that follow replace the active set.
    NewHints,
    Move(f64, f64),
    Line(f64, f64),
    Curve([f64; 6]),
    /// Flex: two curves (6 points) and the flex depth in 1/100 device pixel.
    Flex([f64; 12], f64),
    Close,
}

/// A glyph run to its end.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Outline {
    pub width: f64,
    pub events: Vec<Ev>,
    /// `seac` as Type 2 endchar arguments: accent offset x, y, base code, accent code.
    pub seac: Option<[f64; 4]>,
}

/// Decrypts a charstring or subroutine (`len_iv` < 0: not encrypted).
pub(crate) fn decrypt(data: &[u8], len_iv: i32) -> Vec<u8> {
    match usize::try_from(len_iv) {
        Ok(skip) => super::eexec::decrypt(data, super::eexec::CHARSTRING_KEY, skip),
        Err(_) => data.to_vec(),
    }
}

struct Interp<'a> {
    subrs: &'a [Vec<u8>],
    stack: Vec<f64>,
    ps: Vec<f64>,
    x: f64,
    y: f64,
    sbx: f64,
    sby: f64,
    flex: Option<Vec<(f64, f64)>>,
    after_flex: bool,
    out: Outline,
    done: bool,
    /// Operators left to run: bounds nested subroutine calls on hostile fonts.
    budget: u32,
}

/// Runs `code` (decrypted) with decrypted `subrs`; at most 200 000 operators, so hostile
/// subroutine nesting cannot blow up time or memory.
pub(crate) fn interpret(code: &[u8], subrs: &[Vec<u8>]) -> Result<Outline, &'static str> {
    let mut it = Interp {
        subrs,
        stack: Vec::new(),
        ps: Vec::new(),
        x: 0.0,
        y: 0.0,
        sbx: 0.0,
        sby: 0.0,
        flex: None,
        after_flex: false,
        out: Outline::default(),
        done: false,
        budget: 200_000,
    };
    it.run(code, 0)?;
    if !it.done {
        return Err("charstring without endchar");
    }
    Ok(it.out)
}

impl Interp<'_> {
    fn pop(&mut self) -> Result<f64, &'static str> {
        self.stack.pop().ok_or("charstring stack underflow")
    }

    fn args<const N: usize>(&mut self) -> Result<[f64; N], &'static str> {
        if self.stack.len() < N {
            return Err("charstring stack underflow");
        }
        let start = self.stack.len() - N;
        let mut a = [0.0; N];
        a.copy_from_slice(&self.stack[start..]);
        self.stack.clear();
        Ok(a)
    }

    fn move_to(&mut self, dx: f64, dy: f64) {
        self.x += dx;
        self.y += dy;
        if self.flex.is_none() {
            self.out.events.push(Ev::Move(self.x, self.y));
        }
    }

    fn line_to(&mut self, dx: f64, dy: f64) {
        self.x += dx;
        self.y += dy;
        self.out.events.push(Ev::Line(self.x, self.y));
    }

    fn curve_to(&mut self, d: [f64; 6]) {
        let x1 = self.x + d[0];
        let y1 = self.y + d[1];
        let x2 = x1 + d[2];
        let y2 = y1 + d[3];
        self.x = x2 + d[4];
        self.y = y2 + d[5];
        self.out
            .events
            .push(Ev::Curve([x1, y1, x2, y2, self.x, self.y]));
    }

    fn run(&mut self, code: &[u8], depth: usize) -> Result<(), &'static str> {
        if depth > 16 {
            return Err("subroutines nested too deeply");
        }
        let mut i = 0;
        while i < code.len() && !self.done {
            let b = code[i];
            i += 1;
            if b >= 32 {
                let v = match b {
                    32..=246 => i32::from(b) - 139,
                    247..=254 => {
                        let w = i32::from(*code.get(i).ok_or("truncated number")?);
                        i += 1;
                        if b <= 250 {
                            (i32::from(b) - 247) * 256 + w + 108
                        } else {
                            -(i32::from(b) - 251) * 256 - w - 108
                        }
                    }
                    _ => {
                        let s = code.get(i..i + 4).ok_or("truncated number")?;
                        i += 4;
                        i32::from_be_bytes([s[0], s[1], s[2], s[3]])
                    }
                };
                if self.stack.len() >= 48 {
                    return Err("charstring stack overflow");
                }
                self.stack.push(f64::from(v));
                continue;
            }
            self.budget = self
                .budget
                .checked_sub(1)
                .ok_or("charstring runs too long")?;
            let op = if b == 12 {
                let e = *code.get(i).ok_or("truncated escape")?;
                i += 1;
                1200 + u16::from(e)
            } else {
                u16::from(b)
            };
            if op != 1233 {
                self.after_flex = false;
            }
            match op {
                1 => {
                    let [y, dy] = self.args()?;
                    self.out.events.push(Ev::HStem(y + self.sby, dy));
                }
                3 => {
                    let [x, dx] = self.args()?;
                    self.out.events.push(Ev::VStem(x + self.sbx, dx));
                }
                1202 => {
                    let a: [f64; 6] = self.args()?;
                    for p in a.chunks(2) {
                        self.out.events.push(Ev::HStem(p[0] + self.sby, p[1]));
                    }
                }
                1201 => {
                    let a: [f64; 6] = self.args()?;
                    for p in a.chunks(2) {
                        self.out.events.push(Ev::VStem(p[0] + self.sbx, p[1]));
                    }
                }
                4 => {
                    let [dy] = self.args()?;
                    self.move_to(0.0, dy);
                }
                22 => {
                    let [dx] = self.args()?;
                    self.move_to(dx, 0.0);
                }
                21 => {
                    let [dx, dy] = self.args()?;
                    self.move_to(dx, dy);
                }
                5 => {
                    let [dx, dy] = self.args()?;
                    self.line_to(dx, dy);
                }
                6 => {
                    let [dx] = self.args()?;
                    self.line_to(dx, 0.0);
                }
                7 => {
                    let [dy] = self.args()?;
                    self.line_to(0.0, dy);
                }
                8 => {
                    let a = self.args()?;
                    self.curve_to(a);
                }
                30 => {
                    let [dy1, dx2, dy2, dx3] = self.args()?;
                    self.curve_to([0.0, dy1, dx2, dy2, dx3, 0.0]);
                }
                31 => {
                    let [dx1, dx2, dy2, dy3] = self.args()?;
                    self.curve_to([dx1, 0.0, dx2, dy2, 0.0, dy3]);
                }
                9 => {
                    self.stack.clear();
                    self.out.events.push(Ev::Close);
                }
                10 => {
                    let n = self.pop()?;
                    let sub = usize::try_from(n as i64)
                        .ok()
                        .and_then(|n| self.subrs.get(n))
                        .ok_or("callsubr to a missing subroutine")?;
                    self.run(sub, depth + 1)?;
                }
                11 => return Ok(()),
                13 => {
                    let [sbx, wx] = self.args()?;
                    self.sbx = sbx;
                    self.x = sbx;
                    self.y = 0.0;
                    self.out.width = wx;
                }
                1207 => {
                    let [sbx, sby, wx, _wy] = self.args()?;
                    self.sbx = sbx;
                    self.sby = sby;
                    self.x = sbx;
                    self.y = sby;
                    self.out.width = wx;
                }
                14 => {
                    self.stack.clear();
                    self.done = true;
                }
                1206 => {
                    let [asb, adx, ady, bchar, achar] = self.args()?;
                    self.out.seac = Some([adx + self.sbx - asb, ady, bchar, achar]);
                    self.done = true;
                }
                1200 => self.stack.clear(),
                1212 => {
                    let b = self.pop()?;
                    let a = self.pop()?;
                    if b == 0.0 {
                        return Err("division by zero");
                    }
                    self.stack.push(a / b);
                }
                1216 => self.other_subr()?,
                1217 => {
                    let v = self.ps.pop().ok_or("pop without othersubr result")?;
                    self.stack.push(v);
                }
                1233 => {
                    let [x, y] = self.args()?;
                    if !self.after_flex {
                        self.x = x;
                        self.y = y;
                    }
                    self.after_flex = false;
                }
                _ => return Err("unknown charstring operator"),
            }
        }
        Ok(())
    }

    fn other_subr(&mut self) -> Result<(), &'static str> {
        let idx = self.pop()?;
        let n = self.pop()?;
        if !(0.0..=self.stack.len() as f64).contains(&n) || n.fract() != 0.0 {
            return Err("bad othersubr argument count");
        }
        let args = self.stack.split_off(self.stack.len() - n as usize);
        self.ps.clear();
        match idx as i32 {
            0 => {
                let pts = self.flex.take().ok_or("flex end without start")?;
                if pts.len() != 7 || args.len() != 3 {
                    return Err("malformed flex");
                }
                let mut c = [0.0; 12];
                for (k, p) in pts[1..].iter().enumerate() {
                    c[2 * k] = p.0;
                    c[2 * k + 1] = p.1;
                }
                self.out.events.push(Ev::Flex(c, args[0]));
                self.x = c[10];
                self.y = c[11];
                self.ps.extend([args[2], args[1]]);
                self.after_flex = true;
            }
            1 => self.flex = Some(Vec::with_capacity(7)),
            2 => {
                let p = (self.x, self.y);
                self.flex
                    .as_mut()
                    .ok_or("flex point without start")?
                    .push(p);
            }
            3 => {
                self.out.events.push(Ev::NewHints);
                self.ps.extend(args.iter().rev());
            }
            // Counter control hints: only affect rasterization, safe to drop.
            12 | 13 => self.ps.extend(args.iter().rev()),
            _ => return Err("unsupported othersubr"),
        }
        Ok(())
    }
}
