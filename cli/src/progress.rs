//! Progress bars on stderr, for large bodies only and only when someone watches: a CI log
//! would get one line per redraw, and a small file is done before a bar would help.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Bodies from this size up get a bar.
pub const LARGE: u64 = 8 * 1024 * 1024;

/// Whether bars may be drawn at all.
pub fn wanted(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// A bar for `len` bytes to send, when the body is large and bars are wanted.
pub fn upload(len: u64, wanted: bool, label: &str) -> Option<ProgressBar> {
    (wanted && len >= LARGE).then(|| bar(Some(len), label))
}

fn bar(len: Option<u64>, label: &str) -> ProgressBar {
    let (bar, template) = match len {
        Some(len) => (
            ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr()),
            "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        ),
        None => (
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
            "{msg} {spinner} {bytes} {bytes_per_sec}",
        ),
    };
    let style = ProgressStyle::with_template(template)
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(label.to_owned());
    bar
}

/// A download's bar: shown from the start when the answer says it is large, or once that many
/// bytes have come when it does not say (a ZIP streamed as pages finish). It counts from the
/// first byte either way, hidden until then, so its rate is the download's.
pub struct Download {
    received: u64,
    bar: Option<ProgressBar>,
    shown: bool,
}

impl Download {
    pub fn new(len: Option<u64>, wanted: bool, label: &str) -> Download {
        let shown = len.is_some_and(|l| l >= LARGE);
        let bar = wanted.then(|| {
            let bar = bar(len, label);
            if !shown {
                bar.set_draw_target(ProgressDrawTarget::hidden());
            }
            bar
        });
        Download {
            received: 0,
            bar,
            shown,
        }
    }

    pub fn advance(&mut self, bytes: u64) {
        self.received += bytes;
        if let Some(bar) = &self.bar {
            bar.set_position(self.received);
            if !self.shown && self.received >= LARGE {
                bar.set_draw_target(ProgressDrawTarget::stderr());
                self.shown = true;
            }
        }
    }

    pub fn received(&self) -> u64 {
        self.received
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
