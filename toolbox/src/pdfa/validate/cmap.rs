//! Embedded CMaps of composite fonts, enough to split strings into codes and find each
//! code's CID: code space ranges, CID ranges and characters, the writing mode.

use super::super::content::{self, Operand};

/// A parsed CMap.
#[derive(Debug, Default)]
pub struct Cmap {
    /// Code space ranges: low and high bounds of the same length.
    spaces: Vec<(Vec<u8>, Vec<u8>)>,
    /// (first code, last code, first CID), codes of a given length.
    ranges: Vec<(Vec<u8>, Vec<u8>, u32)>,
    pub wmode: i64,
    pub uses_other: bool,
}

fn hex_value(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |acc, &b| (acc << 8) | u64::from(b))
}

impl Cmap {
    pub fn parse(data: &[u8]) -> Option<Cmap> {
        let ops = content::parse(data).ok()?;
        let mut cmap = Cmap::default();
        for op in ops {
            match op.operator.as_slice() {
                b"endcodespacerange" => {
                    for pair in op.operands.chunks_exact(2) {
                        if let (Operand::Str(lo), Operand::Str(hi)) = (&pair[0], &pair[1])
                            && lo.len() == hi.len()
                            && !lo.is_empty()
                        {
                            cmap.spaces.push((lo.clone(), hi.clone()));
                        }
                    }
                }
                b"endcidrange" => {
                    for triple in op.operands.chunks_exact(3) {
                        if let (Operand::Str(lo), Operand::Str(hi), Operand::Int(cid)) =
                            (&triple[0], &triple[1], &triple[2])
                        {
                            cmap.ranges
                                .push((lo.clone(), hi.clone(), u32::try_from(*cid).ok()?));
                        }
                    }
                }
                b"endcidchar" => {
                    for pair in op.operands.chunks_exact(2) {
                        if let (Operand::Str(code), Operand::Int(cid)) = (&pair[0], &pair[1]) {
                            cmap.ranges.push((
                                code.clone(),
                                code.clone(),
                                u32::try_from(*cid).ok()?,
                            ));
                        }
                    }
                }
                b"def" => {
                    if let [Operand::Name(key), Operand::Int(v)] = op.operands.as_slice()
                        && key == b"WMode"
                    {
                        cmap.wmode = *v;
                    }
                }
                b"usecmap" => cmap.uses_other = true,
                _ => {}
            }
        }
        (!cmap.spaces.is_empty()).then_some(cmap)
    }

    /// The (code, CID) pairs of a string; CID 0 for a code the CMap does not map. `None`
    /// when a code is in no code space range.
    pub fn decode(&self, data: &[u8]) -> Option<Vec<(u64, u32)>> {
        let mut out = Vec::new();
        let mut pos = 0;
        while pos < data.len() {
            let mut matched = None;
            for len in 1..=4usize {
                let Some(code) = data.get(pos..pos + len) else {
                    break;
                };
                let inside = self.spaces.iter().any(|(lo, hi)| {
                    lo.len() == len
                        && code
                            .iter()
                            .zip(lo.iter().zip(hi))
                            .all(|(c, (l, h))| l <= c && c <= h)
                });
                if inside {
                    matched = Some(code);
                    break;
                }
            }
            let code = matched?;
            let value = hex_value(code);
            let cid = self
                .ranges
                .iter()
                .filter(|(lo, _, _)| lo.len() == code.len())
                .find(|(lo, hi, _)| hex_value(lo) <= value && value <= hex_value(hi))
                .map_or(0, |(lo, _, cid)| cid + (value - hex_value(lo)) as u32);
            out.push((value, cid));
            pos += code.len();
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_split_by_code_space_and_map_to_cids() {
        let cmap = Cmap::parse(
            b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/WMode 0 def\n\
              1 begincodespacerange <00> <7F> endcodespacerange\n\
              1 begincodespacerange <8000> <FFFF> endcodespacerange\n\
              1 begincidrange <20> <7E> 1 endcidrange\n1 begincidchar <8140> 633 endcidchar\n\
              endcmap CMapName currentdict /CMap defineresource pop end end",
        )
        .expect("parses");
        assert_eq!(
            cmap.decode(b"A\x81\x40\x10"),
            Some(vec![(0x41, 34), (0x8140, 633), (0x10, 0)])
        );
    }
}
