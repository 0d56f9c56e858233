//! What a content stream draws, read with its graphics state: each painted path, shown
//! text, image, form or shading, whether it is translucent, where it lies, and the colour it
//! takes once blended with white (`underlay` rewrites the stream from this).

use super::content::{Op, Operand};
use super::underlay::{Blend, Resources, Space, XObject};
use crate::geometry::{IDENTITY, Matrix, Rect, apply, multiply, transform_rect};

#[derive(Debug, Clone)]
pub(super) struct Colour {
    space: Space,
    comps: Vec<f64>,
}

impl Colour {
    fn initial(space: Space) -> Colour {
        let comps = match space {
            Space::Additive(n) => vec![0.0; n],
            Space::Subtractive(n) => (0..n).map(|i| if i + 1 == n { 1.0 } else { 0.0 }).collect(),
            Space::Other => Vec::new(),
        };
        Colour { space, comps }
    }

    /// Blended with white at opacity `alpha`; None when the space has no white to blend with.
    fn blended(&self, alpha: f64) -> Option<Vec<f64>> {
        let white = match self.space {
            Space::Additive(_) => 1.0,
            Space::Subtractive(_) => 0.0,
            Space::Other => return None,
        };
        Some(
            self.comps
                .iter()
                .map(|c| alpha * c + (1.0 - alpha) * white)
                .collect(),
        )
    }
}

#[derive(Debug, Clone)]
pub(super) struct State {
    ctm: Matrix,
    fill_alpha: f64,
    stroke_alpha: f64,
    blend: Blend,
    soft_mask: bool,
    fill: Colour,
    stroke: Colour,
    line_width: f64,
    render_mode: i64,
}

impl State {
    fn paints_normally(&self) -> Result<(), String> {
        if self.soft_mask {
            return Err("a soft mask".into());
        }
        if self.blend == Blend::Other {
            return Err("a blend mode other than Normal, Multiply or Darken".into());
        }
        Ok(())
    }
}

/// A colour to set around a translucent object: (blended, original, stroke?).
pub(super) type Recolour = (Vec<f64>, Vec<f64>, bool);

/// Something drawn: the operations from `start` to `end` (a path from its first segment to
/// its painting operator, or one operator).
pub(super) struct Mark {
    pub start: usize,
    pub end: usize,
    pub translucent: bool,
    /// Text is what a translucent object is drawn under, never what it must stay over.
    pub text: bool,
    /// Where it lies on the page; None: anywhere.
    pub bbox: Option<Rect>,
    /// The path sets a clip too.
    pub clips: bool,
    pub recolour: Vec<Recolour>,
}

/// Follows the graphics state through `ops` and lists what they draw.
pub(super) fn find_marks(
    ops: &[Op],
    resources: &dyn Resources,
    extra: f64,
) -> Result<Vec<Mark>, String> {
    let mut state = State {
        ctm: IDENTITY,
        fill_alpha: 1.0,
        stroke_alpha: 1.0,
        blend: Blend::Normal,
        soft_mask: false,
        fill: Colour::initial(Space::Additive(1)),
        stroke: Colour::initial(Space::Additive(1)),
        line_width: 1.0,
        render_mode: 0,
    };
    let mut stack: Vec<State> = Vec::new();
    let mut marks = Vec::new();
    let mut path_start: Option<usize> = None;
    let mut path_box: Option<Rect> = None;
    let mut clips = false;
    let mut text_clips = false;
    // The current text object's shows: (any translucent, any opaque).
    let mut shows = (false, false);
    let nums = |op: &Op| -> Vec<f64> { op.operands.iter().filter_map(Operand::number).collect() };
    for (i, op) in ops.iter().enumerate() {
        let operator = op.operator.as_slice();
        let point = |x: f64, y: f64, path_box: &mut Option<Rect>| {
            let (px, py) = apply(state.ctm, (x, y));
            *path_box = Some(match *path_box {
                None => [px, py, px, py],
                Some(b) => [b[0].min(px), b[1].min(py), b[2].max(px), b[3].max(py)],
            });
        };
        match operator {
            b"q" => stack.push(state.clone()),
            b"Q" => {
                if let Some(saved) = stack.pop() {
                    state = saved;
                }
            }
            b"cm" => {
                if let [a, b, c, d, e, f] = nums(op)[..] {
                    state.ctm = multiply([a, b, c, d, e, f], state.ctm);
                }
            }
            b"w" => {
                if let [w] = nums(op)[..] {
                    state.line_width = w;
                }
            }
            b"Tr" => {
                if let [mode] = nums(op)[..] {
                    state.render_mode = mode as i64;
                    text_clips |= mode >= 4.0;
                }
            }
            b"gs" => {
                let g = op
                    .operands
                    .first()
                    .and_then(Operand::name)
                    .and_then(|n| resources.gs(n))
                    .unwrap_or_default();
                if let Some(a) = g.fill {
                    state.fill_alpha = a;
                }
                if let Some(a) = g.stroke {
                    state.stroke_alpha = a;
                }
                if let Some(b) = g.blend {
                    state.blend = b;
                }
                if let Some(mask) = g.soft_mask {
                    state.soft_mask = mask;
                }
            }
            b"g" | b"rg" | b"k" | b"G" | b"RG" | b"K" => {
                let comps = nums(op);
                let space = match operator {
                    b"k" | b"K" => Space::Subtractive(4),
                    _ => Space::Additive(comps.len()),
                };
                let colour = Colour { space, comps };
                if operator.iter().all(u8::is_ascii_lowercase) {
                    state.fill = colour;
                } else {
                    state.stroke = colour;
                }
            }
            b"cs" | b"CS" => {
                let space = match op.operands.first().and_then(Operand::name) {
                    Some(b"DeviceGray" | b"CalGray" | b"G") => Space::Additive(1),
                    Some(b"DeviceRGB" | b"CalRGB" | b"RGB") => Space::Additive(3),
                    Some(b"DeviceCMYK" | b"CMYK") => Space::Subtractive(4),
                    Some(name) => resources.space(name),
                    None => Space::Other,
                };
                if operator == b"cs" {
                    state.fill = Colour::initial(space);
                } else {
                    state.stroke = Colour::initial(space);
                }
            }
            b"sc" | b"scn" | b"SC" | b"SCN" => {
                let fill = operator[0] == b's';
                let target = if fill {
                    &mut state.fill
                } else {
                    &mut state.stroke
                };
                let comps = nums(op);
                if comps.len() == op.operands.len() && target.space != Space::Other {
                    target.comps = comps;
                } else {
                    target.space = Space::Other;
                }
            }
            b"m" | b"l" | b"c" | b"v" | b"y" => {
                path_start.get_or_insert(i);
                for pair in nums(op).chunks_exact(2) {
                    point(pair[0], pair[1], &mut path_box);
                }
            }
            b"re" => {
                path_start.get_or_insert(i);
                if let [x, y, w, h] = nums(op)[..] {
                    for (px, py) in [(x, y), (x + w, y), (x, y + h), (x + w, y + h)] {
                        point(px, py, &mut path_box);
                    }
                }
            }
            b"h" => {}
            b"W" | b"W*" => clips = true,
            b"f" | b"F" | b"f*" | b"S" | b"s" | b"B" | b"B*" | b"b" | b"b*" | b"n" => {
                let start = path_start.take().unwrap_or(i);
                let bbox = path_box.take();
                let clip = std::mem::take(&mut clips);
                if operator == b"n" {
                    continue;
                }
                let fills = !matches!(operator, b"S" | b"s");
                let strokes = matches!(operator, b"S" | b"s" | b"B" | b"B*" | b"b" | b"b*");
                // Half the line width, in page units, around a stroke.
                let reach = if strokes {
                    let [a, b, c, d, _, _] = state.ctm;
                    state.line_width.max(1.0) * (a * d - b * c).abs().sqrt() / 2.0
                } else {
                    0.0
                };
                let bbox = bbox.map(|b| [b[0] - reach, b[1] - reach, b[2] + reach, b[3] + reach]);
                let mark = paint(&state, extra, fills, strokes, start, i, bbox, false)?;
                if mark.translucent && clip {
                    return Err("a translucent path that also clips".into());
                }
                marks.push(Mark {
                    clips: clip,
                    ..mark
                });
            }
            b"Tj" | b"TJ" | b"'" | b"\"" => {
                let mode = state.render_mode;
                if mode == 3 || mode == 7 {
                    continue;
                }
                let fills = matches!(mode, 0 | 2 | 4 | 6);
                let strokes = matches!(mode, 1 | 2 | 5 | 6);
                let mark = paint(&state, extra, fills, strokes, i, i, None, true)?;
                // A copy that drew some of a text object's strings and not the others would
                // move those after the ones left out.
                if mark.translucent {
                    shows.0 = true;
                } else {
                    shows.1 = true;
                }
                if shows.0 && shows.1 {
                    return Err("a text object with both translucent and opaque text".into());
                }
                marks.push(mark);
            }
            b"BT" => shows = (false, false),
            b"Do" => {
                let name = op.operands.first().and_then(Operand::name).unwrap_or(b"");
                let translucent_state =
                    state.fill_alpha * extra < 1.0 || state.blend != Blend::Normal;
                let (bbox, translucent) = match resources.xobject(name) {
                    XObject::Image { soft_mask } => {
                        if soft_mask {
                            return Err("an image with a soft mask".into());
                        }
                        (transform_rect(state.ctm, [0.0, 0.0, 1.0, 1.0]), false)
                    }
                    XObject::Form {
                        bbox,
                        translucent,
                        underlay,
                    } => {
                        if translucent {
                            return Err("a form XObject that draws translucent content".into());
                        }
                        (transform_rect(state.ctm, bbox), underlay)
                    }
                    XObject::Unknown => continue,
                };
                if translucent_state {
                    return Err("an image or form drawn translucent".into());
                }
                state.paints_normally()?;
                marks.push(Mark {
                    start: i,
                    end: i,
                    translucent,
                    text: false,
                    bbox: Some(bbox),
                    clips: false,
                    recolour: Vec::new(),
                });
            }
            b"BI" | b"sh" => {
                if state.fill_alpha * extra < 1.0 || state.blend != Blend::Normal {
                    return Err("an image or shading drawn translucent".into());
                }
                state.paints_normally()?;
                let bbox =
                    (operator == b"BI").then(|| transform_rect(state.ctm, [0.0, 0.0, 1.0, 1.0]));
                marks.push(Mark {
                    start: i,
                    end: i,
                    translucent: false,
                    text: false,
                    bbox,
                    clips: false,
                    recolour: Vec::new(),
                });
            }
            _ => {}
        }
    }
    if text_clips && marks.iter().any(|m| m.translucent) {
        return Err("text used as a clip".into());
    }
    Ok(marks)
}

/// A painted path or shown text in `state`.
#[allow(clippy::too_many_arguments)]
fn paint(
    state: &State,
    extra: f64,
    fills: bool,
    strokes: bool,
    start: usize,
    end: usize,
    bbox: Option<Rect>,
    text: bool,
) -> Result<Mark, String> {
    state.paints_normally()?;
    let under = state.blend == Blend::Under;
    let fill_alpha = state.fill_alpha * extra;
    let stroke_alpha = state.stroke_alpha * extra;
    let fill_see_through = fills && (fill_alpha < 1.0 || under);
    let stroke_see_through = strokes && (stroke_alpha < 1.0 || under);
    let translucent = fill_see_through || stroke_see_through;
    if translucent && fills && strokes && fill_see_through != stroke_see_through {
        return Err("a path filled and stroked with different opacities".into());
    }
    let mut recolour = Vec::new();
    if translucent {
        for (colour, alpha, stroke) in [
            (&state.fill, fill_alpha, false),
            (&state.stroke, stroke_alpha, true),
        ] {
            if (stroke && !strokes) || (!stroke && !fills) || alpha >= 1.0 {
                continue;
            }
            let blended = colour
                .blended(alpha.max(0.0))
                .ok_or("a translucent colour in a space with no white to blend with")?;
            recolour.push((blended, colour.comps.clone(), stroke));
        }
    }
    Ok(Mark {
        start,
        end,
        translucent,
        text,
        bbox,
        clips: false,
        recolour,
    })
}
