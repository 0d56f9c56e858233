//! The operators ISO 32000-1 defines for content streams (Table A.1), with the kinds of
//! operand each takes: n a number, i an integer, N a name, s a string, a an array, D a
//! dictionary or a name, * any (checked by the operator's own rule).

use super::super::content::Operand;

pub fn signature(op: &[u8]) -> Option<&'static str> {
    Some(match op {
        b"w" | b"M" | b"i" | b"Tc" | b"Tw" | b"Tz" | b"TL" | b"Ts" | b"G" | b"g" => "n",
        b"J" | b"j" | b"Tr" => "i",
        b"d" => "an",
        b"ri" | b"gs" | b"CS" | b"cs" | b"sh" | b"Do" | b"MP" | b"BMC" => "N",
        b"q" | b"Q" | b"h" | b"S" | b"s" | b"f" | b"F" | b"f*" | b"B" | b"B*" | b"b" | b"b*"
        | b"n" | b"W" | b"W*" | b"BT" | b"ET" | b"T*" | b"EMC" | b"BX" | b"EX" => "",
        b"cm" | b"c" | b"Tm" | b"d1" => "nnnnnn",
        b"m" | b"l" | b"Td" | b"TD" | b"d0" => "nn",
        b"v" | b"y" | b"re" => "nnnn",
        b"Tf" => "Nn",
        b"Tj" | b"'" => "s",
        b"TJ" => "a",
        b"\"" => "nns",
        b"RG" | b"rg" => "nnn",
        b"K" | b"k" => "nnnn",
        b"DP" | b"BDC" => "ND",
        b"SC" | b"SCN" | b"sc" | b"scn" | b"BI" => "*",
        _ => return None,
    })
}

pub fn matches_signature(sig: &str, operands: &[Operand]) -> bool {
    if sig == "*" {
        return true;
    }
    sig.len() == operands.len()
        && sig.chars().zip(operands).all(|(kind, operand)| match kind {
            'n' => matches!(operand, Operand::Int(_) | Operand::Real(_)),
            'i' => matches!(operand, Operand::Int(_)),
            'N' => matches!(operand, Operand::Name(_)),
            's' => matches!(operand, Operand::Str(_)),
            'a' => matches!(operand, Operand::Array(_)),
            'D' => matches!(operand, Operand::Dict(_) | Operand::Name(_)),
            _ => false,
        })
}
