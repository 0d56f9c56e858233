//! The transport filters (Flate, LZW, ASCII85, ASCIIHex, RunLength) as streaming decoders that
//! count what each stage puts out and stop at the limits: a chain never holds more than one
//! 64 KiB buffer per stage, whatever its data decodes to. Damaged data ends its stream there,
//! as it does in the engines (they show what decoded), so only what decodes is counted.

use flate2::{Decompress, FlushDecompress, Status};

use super::{MAX_STREAM_DECODED, MAX_TOTAL_DECODED};

const CHUNK: usize = 64 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Flate,
    /// `early`: the `/EarlyChange` parameter (1 unless the stream says 0).
    Lzw {
        early: bool,
    },
    Ascii85,
    AsciiHex,
    RunLength,
}

/// Which limit decoding ran into.
#[derive(Debug, PartialEq, Eq)]
pub enum Over {
    Stream,
    Total,
}

/// Bytes decoded so far in the whole file, and where the last stage's output goes.
pub struct Budget {
    pub total: u64,
}

/// Decodes `data` through `filters`, counting every stage's output against the limits of one
/// stream and of the file; the last stage's output is appended to `keep` up to `keep_max`
/// bytes (an object stream, parsed afterwards). Returns the last stage's size.
pub fn run(
    filters: &[Filter],
    data: &[u8],
    budget: &mut Budget,
    keep: &mut Vec<u8>,
    keep_max: usize,
) -> Result<u64, Over> {
    let mut stages: Vec<Stage> = filters.iter().map(|&f| Stage::new(f)).collect();
    let mut counts = vec![0u64; stages.len()];
    let mut sink = Sink {
        budget,
        keep,
        keep_max,
    };
    push(&mut stages, &mut counts, data, &mut sink)?;
    Ok(counts.last().copied().unwrap_or(data.len() as u64))
}

struct Sink<'a> {
    budget: &'a mut Budget,
    keep: &'a mut Vec<u8>,
    keep_max: usize,
}

fn push(
    stages: &mut [Stage],
    counts: &mut [u64],
    data: &[u8],
    sink: &mut Sink,
) -> Result<(), Over> {
    let (Some((stage, rest)), Some((count, rest_counts))) =
        (stages.split_first_mut(), counts.split_first_mut())
    else {
        let room = sink.keep_max.saturating_sub(sink.keep.len());
        sink.keep.extend_from_slice(&data[..data.len().min(room)]);
        return Ok(());
    };
    let mut emit = |out: &[u8]| -> Result<(), Over> {
        *count += out.len() as u64;
        if *count > MAX_STREAM_DECODED {
            return Err(Over::Stream);
        }
        sink.budget.total += out.len() as u64;
        if sink.budget.total > MAX_TOTAL_DECODED {
            return Err(Over::Total);
        }
        push(rest, rest_counts, out, sink)
    };
    stage.feed(data, &mut emit)
}

type Emit<'a> = dyn FnMut(&[u8]) -> Result<(), Over> + 'a;

struct Stage {
    state: State,
    out: Vec<u8>,
    done: bool,
}

enum State {
    Flate(Box<Decompress>),
    Lzw(Box<Lzw>),
    Ascii85 { group: [u8; 5], len: usize },
    AsciiHex { high: Option<u8> },
    RunLength(Run),
}

#[derive(Clone, Copy)]
enum Run {
    Header,
    Literal(usize),
    Repeat(usize),
}

impl Stage {
    fn new(filter: Filter) -> Stage {
        let state = match filter {
            Filter::Flate => State::Flate(Box::new(Decompress::new(true))),
            Filter::Lzw { early } => State::Lzw(Box::new(Lzw::new(early))),
            Filter::Ascii85 => State::Ascii85 {
                group: [0; 5],
                len: 0,
            },
            Filter::AsciiHex => State::AsciiHex { high: None },
            Filter::RunLength => State::RunLength(Run::Header),
        };
        Stage {
            state,
            out: Vec::with_capacity(CHUNK),
            done: false,
        }
    }

    fn feed(&mut self, input: &[u8], emit: &mut Emit) -> Result<(), Over> {
        if self.done {
            return Ok(());
        }
        match &mut self.state {
            State::Flate(inflate) => {
                let start = inflate.total_in() == 0;
                self.done = match flate(inflate, input, &mut self.out, emit)? {
                    // No zlib header: lopdf reads the data again as raw deflate, so must this.
                    Inflated::Broken if start && inflate.total_out() == 0 => {
                        **inflate = Decompress::new(false);
                        flate(inflate, input, &mut self.out, emit)? != Inflated::More
                    }
                    ended => ended != Inflated::More,
                };
                return Ok(());
            }
            State::Lzw(lzw) => {
                for &byte in input {
                    if lzw.byte(byte, &mut self.out) {
                        self.done = true;
                        break;
                    }
                    if self.out.len() >= CHUNK {
                        emit(&self.out)?;
                        self.out.clear();
                    }
                }
            }
            State::Ascii85 { group, len } => {
                for &byte in input {
                    match byte {
                        b'z' if *len == 0 => self.out.extend_from_slice(&[0; 4]),
                        b'!'..=b'u' => {
                            group[*len] = byte - b'!';
                            *len += 1;
                            if *len == 5 {
                                let word = group.iter().fold(0u64, |w, &d| w * 85 + d as u64);
                                self.out.extend_from_slice(&(word as u32).to_be_bytes());
                                *len = 0;
                            }
                        }
                        b if b.is_ascii_whitespace() || b == 0 => {}
                        _ => {
                            self.done = true;
                            break;
                        }
                    }
                    if self.out.len() >= CHUNK {
                        emit(&self.out)?;
                        self.out.clear();
                    }
                }
            }
            State::AsciiHex { high } => {
                for &byte in input {
                    let digit = match byte {
                        b'0'..=b'9' => byte - b'0',
                        b'a'..=b'f' => byte - b'a' + 10,
                        b'A'..=b'F' => byte - b'A' + 10,
                        b if b.is_ascii_whitespace() || b == 0 => continue,
                        _ => {
                            self.done = true;
                            break;
                        }
                    };
                    match high.take() {
                        Some(h) => self.out.push(h << 4 | digit),
                        None => *high = Some(digit),
                    }
                    if self.out.len() >= CHUNK {
                        emit(&self.out)?;
                        self.out.clear();
                    }
                }
            }
            State::RunLength(run) => {
                let mut input = input;
                while let Some((&byte, tail)) = input.split_first() {
                    match *run {
                        Run::Header => {
                            input = tail;
                            *run = match byte {
                                0..=127 => Run::Literal(byte as usize + 1),
                                128 => {
                                    self.done = true;
                                    break;
                                }
                                _ => Run::Repeat(257 - byte as usize),
                            };
                        }
                        Run::Literal(left) => {
                            let take = left.min(input.len());
                            self.out.extend_from_slice(&input[..take]);
                            input = &input[take..];
                            *run = if take == left {
                                Run::Header
                            } else {
                                Run::Literal(left - take)
                            };
                        }
                        Run::Repeat(times) => {
                            input = tail;
                            self.out.resize(self.out.len() + times, byte);
                            *run = Run::Header;
                        }
                    }
                    if self.out.len() >= CHUNK {
                        emit(&self.out)?;
                        self.out.clear();
                    }
                }
            }
        }
        // What is left of this input: the next stage gets it now, since no more may come.
        if !self.out.is_empty() {
            emit(&self.out)?;
            self.out.clear();
        }
        Ok(())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Inflated {
    /// The input is used up and the stream goes on.
    More,
    Ended,
    Broken,
}

/// Inflates `input` in `CHUNK`s.
fn flate(
    inflate: &mut Decompress,
    mut input: &[u8],
    out: &mut Vec<u8>,
    emit: &mut Emit,
) -> Result<Inflated, Over> {
    out.resize(CHUNK, 0);
    loop {
        let (before_in, before_out) = (inflate.total_in(), inflate.total_out());
        let status = inflate.decompress(input, out, FlushDecompress::None);
        let consumed = (inflate.total_in() - before_in) as usize;
        let produced = (inflate.total_out() - before_out) as usize;
        input = &input[consumed..];
        if produced > 0 {
            emit(&out[..produced])?;
        }
        match status {
            Ok(Status::StreamEnd) => return Ok(Inflated::Ended),
            Err(_) => return Ok(Inflated::Broken),
            Ok(_) if consumed == 0 && produced == 0 => return Ok(Inflated::More),
            Ok(_) => {}
        }
        // The output buffer filled up: more may be pending even with no input left.
        if input.is_empty() && produced < out.len() {
            return Ok(Inflated::More);
        }
    }
}

/// PDF's LZW: codes of 9 to 12 bits, most significant bit first, 256 clears the table, 257
/// ends the data.
struct Lzw {
    early: bool,
    /// Per code above 257: the code it extends, its last byte, its length.
    prefix: Vec<u16>,
    last: Vec<u8>,
    length: Vec<u16>,
    width: u32,
    acc: u32,
    bits: u32,
    previous: Option<u16>,
    scratch: Vec<u8>,
}

impl Lzw {
    fn new(early: bool) -> Lzw {
        let mut lzw = Lzw {
            early,
            prefix: Vec::with_capacity(4096),
            last: Vec::with_capacity(4096),
            length: Vec::with_capacity(4096),
            width: 9,
            acc: 0,
            bits: 0,
            previous: None,
            scratch: vec![0; 4096],
        };
        lzw.clear();
        lzw
    }

    fn clear(&mut self) {
        self.prefix.clear();
        self.last.clear();
        self.length.clear();
        for byte in 0..=255u8 {
            self.prefix.push(u16::MAX);
            self.last.push(byte);
            self.length.push(1);
        }
        // 256 (clear) and 257 (end) hold no string.
        for _ in 0..2 {
            self.prefix.push(u16::MAX);
            self.last.push(0);
            self.length.push(0);
        }
        self.width = 9;
        self.previous = None;
    }

    /// The first byte of `code`'s string.
    fn first(&self, mut code: u16) -> u8 {
        while self.prefix[code as usize] != u16::MAX {
            code = self.prefix[code as usize];
        }
        self.last[code as usize]
    }

    fn write(&mut self, mut code: u16, out: &mut Vec<u8>) {
        let len = self.length[code as usize] as usize;
        for i in (0..len).rev() {
            self.scratch[i] = self.last[code as usize];
            code = self.prefix[code as usize];
        }
        out.extend_from_slice(&self.scratch[..len]);
    }

    /// One input byte; true when the data ended (end code, or a code no table holds).
    fn byte(&mut self, byte: u8, out: &mut Vec<u8>) -> bool {
        self.acc = (self.acc << 8) | byte as u32;
        self.bits += 8;
        while self.bits >= self.width {
            self.bits -= self.width;
            let code = ((self.acc >> self.bits) & ((1 << self.width) - 1)) as u16;
            self.acc &= (1 << self.bits) - 1;
            match code {
                256 => {
                    self.clear();
                    continue;
                }
                257 => return true,
                _ => {}
            }
            let next = self.prefix.len() as u16;
            let Some(previous) = self.previous else {
                if code > 255 {
                    return true;
                }
                self.write(code, out);
                self.previous = Some(code);
                continue;
            };
            let first = match code {
                c if c < next => self.first(c),
                c if c == next => self.first(previous),
                _ => return true,
            };
            if next < 4096 {
                self.prefix.push(previous);
                self.last.push(first);
                self.length
                    .push(self.length[previous as usize].saturating_add(1));
            }
            self.write(code, out);
            self.previous = Some(code);
            let size = self.prefix.len() as u32 + self.early as u32;
            if size >= 1 << self.width && self.width < 12 {
                self.width += 1;
            }
        }
        false
    }
}

#[cfg(test)]
#[path = "decode_tests.rs"]
mod tests;
