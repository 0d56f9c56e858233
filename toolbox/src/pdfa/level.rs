//! What each level asks of the file's layout and features.

use super::Level;

impl Level {
    /// The ISO 19005 part: 1, 2 or 3.
    pub fn part(self) -> u8 {
        match self {
            Level::A1b => 1,
            Level::A2b => 2,
            Level::A3b => 3,
        }
    }

    /// "PDF/A-2b", as users read it.
    pub fn label(self) -> &'static str {
        match self {
            Level::A1b => "PDF/A-1b",
            Level::A2b => "PDF/A-2b",
            Level::A3b => "PDF/A-3b",
        }
    }

    /// The header version written: PDF/A-1 is based on PDF 1.4, the others on PDF 1.7.
    pub fn version(self) -> &'static str {
        match self {
            Level::A1b => "1.4",
            Level::A2b | Level::A3b => "1.7",
        }
    }

    /// PDF/A-1 forbids transparency, object and cross-reference streams, optional content,
    /// JPEG 2000 and embedded files; later parts allow them.
    pub fn part1(self) -> bool {
        self == Level::A1b
    }

    /// The prefix of the rule ids in findings: "ISO 19005-2".
    pub fn standard(self) -> &'static str {
        match self {
            Level::A1b => "ISO 19005-1",
            Level::A2b => "ISO 19005-2",
            Level::A3b => "ISO 19005-3",
        }
    }

    /// A rule id for a finding: the clause of ISO 19005-1 or of parts 2 and 3.
    pub fn rule(self, part1: &str, part23: &str) -> String {
        let clause = if self.part1() { part1 } else { part23 };
        format!("{} {clause}", self.standard())
    }
}
