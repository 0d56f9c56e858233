//! Test helpers: a Type 1 charstring assembler, and the charstring interpreter tests.

/// Assembles Type 1 charstring source text (`"20 500 hsbw 0 10 rmoveto ..."`), for tests.
pub(crate) fn t1_asm(src: &str) -> Vec<u8> {
    const OPS: [(&str, u8); 16] = [
        ("hstem", 1),
        ("vstem", 3),
        ("vmoveto", 4),
        ("rlineto", 5),
        ("hlineto", 6),
        ("vlineto", 7),
        ("rrcurveto", 8),
        ("closepath", 9),
        ("callsubr", 10),
        ("return", 11),
        ("hsbw", 13),
        ("endchar", 14),
        ("rmoveto", 21),
        ("hmoveto", 22),
        ("vhcurveto", 30),
        ("hvcurveto", 31),
    ];
    const ESC: [(&str, u8); 9] = [
        ("dotsection", 0),
        ("vstem3", 1),
        ("hstem3", 2),
        ("seac", 6),
        ("sbw", 7),
        ("div", 12),
        ("callothersubr", 16),
        ("pop", 17),
        ("setcurrentpoint", 33),
    ];
    let mut out = Vec::new();
    for w in src.split_whitespace() {
        if let Some(&(_, o)) = OPS.iter().find(|(n, _)| *n == w) {
            out.push(o);
        } else if let Some(&(_, o)) = ESC.iter().find(|(n, _)| *n == w) {
            out.extend([12, o]);
        } else {
            let v: i32 = w.parse().unwrap_or_else(|_| panic!("bad token {w}"));
            match v {
                -107..=107 => out.push((v + 139) as u8),
                108..=1131 => out.extend([((v - 108) / 256 + 247) as u8, ((v - 108) % 256) as u8]),
                -1131..=-108 => {
                    out.extend([((-v - 108) / 256 + 251) as u8, ((-v - 108) % 256) as u8])
                }
                _ => {
                    out.push(255);
                    out.extend(v.to_be_bytes());
                }
            }
        }
    }
    out
}

mod tests {
    use super::t1_asm;
    use crate::fonts::type1::charstring::{Ev, interpret};

    #[test]
    fn hsbw_lines_close() {
        let code = t1_asm("20 500 hsbw 0 10 rmoveto 100 0 rlineto 50 vlineto closepath endchar");
        let o = interpret(&code, &[]).expect("runs");
        assert_eq!(o.width, 500.0);
        assert_eq!(
            o.events,
            vec![
                Ev::Move(20.0, 10.0),
                Ev::Line(120.0, 10.0),
                Ev::Line(120.0, 60.0),
                Ev::Close
            ]
        );
    }

    #[test]
    fn seac_and_div_and_stems() {
        let code = t1_asm(
            "30 600 hsbw 0 20 hstem 10 30 vstem 7 2 div 0 rmoveto -2000 1000 rlineto \
             40 100 20 65 194 seac",
        );
        let o = interpret(&code, &[]).expect("runs");
        assert_eq!(
            o.events,
            vec![
                Ev::HStem(0.0, 20.0),
                Ev::VStem(40.0, 30.0),
                Ev::Move(33.5, 0.0),
                Ev::Line(-1966.5, 1000.0)
            ]
        );
        assert_eq!(o.seac, Some([90.0, 20.0, 65.0, 194.0]));
    }

    #[test]
    fn flex_and_hint_replacement() {
        let subrs: Vec<Vec<u8>> = [
            "3 0 callothersubr pop pop setcurrentpoint return",
            "0 1 callothersubr return",
            "0 2 callothersubr return",
            "return",
            "1 3 callothersubr pop callsubr return",
            "5 10 hstem return",
        ]
        .iter()
        .map(|s| t1_asm(s))
        .collect();
        let code = t1_asm(
            "0 100 hsbw 0 0 rmoveto 1 callsubr \
             10 0 rmoveto 2 callsubr 10 5 rmoveto 2 callsubr 10 0 rmoveto 2 callsubr \
             10 -5 rmoveto 2 callsubr 10 0 rmoveto 2 callsubr 10 0 rmoveto 2 callsubr \
             10 0 rmoveto 2 callsubr 50 70 0 0 callsubr 5 4 callsubr 0 10 rlineto closepath endchar",
        );
        let o = interpret(&code, &subrs).expect("runs");
        assert_eq!(
            o.events,
            vec![
                Ev::Move(0.0, 0.0),
                Ev::Flex(
                    [
                        20.0, 5.0, 30.0, 5.0, 40.0, 0.0, 50.0, 0.0, 60.0, 0.0, 70.0, 0.0
                    ],
                    50.0
                ),
                Ev::NewHints,
                Ev::HStem(5.0, 10.0),
                Ev::Line(70.0, 10.0),
                Ev::Close
            ]
        );
    }

    #[test]
    fn runaway_subroutines_are_cut_off() {
        // Each subr calls the next twice: 2^15 leaves, each drawing lines.
        let mut subrs: Vec<Vec<u8>> = (0..15)
            .map(|i| t1_asm(&format!("{} callsubr {} callsubr return", i + 1, i + 1)))
            .collect();
        subrs.push(t1_asm("1 1 rlineto 1 1 rlineto 1 1 rlineto return"));
        let code = t1_asm("0 100 hsbw 0 0 rmoveto 0 callsubr endchar");
        assert_eq!(interpret(&code, &subrs), Err("charstring runs too long"));
    }

    #[test]
    fn unknown_othersubr_is_an_error() {
        let code = t1_asm("0 100 hsbw 1 2 2 14 callothersubr endchar");
        assert_eq!(interpret(&code, &[]), Err("unsupported othersubr"));
    }
}
