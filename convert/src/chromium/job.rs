//! One print, in a page made ready by `prepare`: the entry opened, every request answered by
//! the interceptor, the top frame kept on the uploaded document (`navigation`), then
//! `Page.printToPDF`.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

use super::cdp::{Cdp, CdpError, Event};
use super::intercept::{self, Refusals};
use super::navigation::{self, Left, TopFrame};
use super::options::PrintOptions;
use super::prepare::{Prepared, discard};
use crate::site::Site;

/// After the load event, the page is printed once no request came for this long...
const QUIET: Duration = Duration::from_millis(100);
/// ...or after this long in any case (a page that keeps polling).
const SETTLE_MAX: Duration = Duration::from_secs(2);
/// The wait for web fonts and two frames ends after this long: a page that replaced
/// `requestAnimationFrame` or `document.fonts` would hold it until the job's time limit.
const FRAMES_MAX: Duration = Duration::from_secs(3);
/// When chromium refuses a command on the page's session, how long its events are read for
/// the reason (a navigation or a close is often told after the refusal).
const EXPLAIN_MAX: Duration = Duration::from_secs(1);

/// Why a job failed, before it is turned into a `ConvertError` by the caller (which knows
/// whether the watcher killed the browser).
#[derive(Debug)]
pub enum JobError {
    Cdp(CdpError),
    /// The page's renderer crashed (out of memory, or a Chromium bug the page triggers).
    Crashed,
    /// The browser could not open the page.
    Navigation(String),
    /// The page left the uploaded document (replaced or closed its top frame).
    Left(Left),
    /// Chromium refused a command because of what the page did (it navigated or closed itself
    /// while the command ran), without an event telling which.
    PageGone {
        method: String,
        message: String,
    },
    Output(std::io::Error),
}

impl From<CdpError> for JobError {
    fn from(error: CdpError) -> Self {
        JobError::Cdp(error)
    }
}

struct Page<'a> {
    site: &'a Site,
    session: String,
    refusals: Refusals,
    /// Loader ids of the navigations that reached their load event.
    loaded: Vec<String>,
    top: TopFrame,
    crashed: bool,
}

impl Page<'_> {
    fn on_event(&mut self, cdp: &mut Cdp, event: Event) {
        self.top.on_event(&event);
        if event.session.as_deref() != Some(self.session.as_str()) {
            return;
        }
        match event.method.as_str() {
            "Fetch.requestPaused" if self.top.refuses(&event.params) => {
                intercept::refuse_navigation(cdp, &self.session, &event.params, &mut self.refusals)
            }
            "Fetch.requestPaused" => intercept::answer(
                cdp,
                &self.session,
                self.site,
                &event.params,
                &mut self.refusals,
            ),
            "Page.lifecycleEvent" if event.params["name"] == "load" => {
                if let Some(loader) = event.params["loaderId"].as_str() {
                    self.loaded.push(loader.to_string());
                }
            }
            "Inspector.targetCrashed" => self.crashed = true,
            // An alert() or confirm() would stop the page until someone answers it.
            "Page.javascriptDialogOpening" => {
                let _ = cdp.send(
                    "Page.handleJavaScriptDialog",
                    json!({ "accept": true }),
                    Some(&self.session),
                );
            }
            "Runtime.bindingCalled" if event.params["name"] == "__quireBlocked" => {
                if let Some(url) = event.params["payload"].as_str() {
                    self.refusals.note_blocked(url.to_string());
                }
            }
            _ => {}
        }
    }

    fn call(
        &mut self,
        cdp: &mut Cdp,
        method: &str,
        params: Value,
        deadline: Instant,
    ) -> Result<Value, JobError> {
        let session = self.session.clone();
        let result = cdp.call(
            method,
            params,
            Some(&session),
            deadline,
            &mut |cdp, event| {
                self.on_event(cdp, event);
                !self.crashed && self.top.left.is_none()
            },
        );
        self.check()?;
        match result {
            Err(CdpError::Protocol { method, message }) => {
                Err(self.explain_refusal(cdp, method, message))
            }
            other => Ok(other?),
        }
    }

    /// The page crashed or left the document.
    fn check(&mut self) -> Result<(), JobError> {
        if self.crashed {
            return Err(JobError::Crashed);
        }
        match self.top.left.take() {
            Some(left) => Err(JobError::Left(left)),
            None => Ok(()),
        }
    }

    /// Why chromium refused a command on the page's session: a refusal the page caused (it
    /// navigated or closed while the command ran) is the page's, and its events usually say
    /// how, shortly after.
    fn explain_refusal(&mut self, cdp: &mut Cdp, method: String, message: String) -> JobError {
        if !navigation::caused_by_page(&message) {
            return JobError::Cdp(CdpError::Protocol { method, message });
        }
        let until = Instant::now() + EXPLAIN_MAX;
        while let Ok(Some(event)) = cdp.next_event(until) {
            self.on_event(cdp, event);
            if let Err(error) = self.check() {
                return error;
            }
        }
        JobError::PageGone { method, message }
    }

    /// Handles events until `until`, or until the page crashes or leaves.
    fn pump(&mut self, cdp: &mut Cdp, until: Instant) -> Result<Option<()>, JobError> {
        match cdp.next_event(until)? {
            Some(event) => {
                self.on_event(cdp, event);
                self.check()?;
                Ok(Some(()))
            }
            None => Ok(None),
        }
    }
}

/// Prints the site's entry to `output` in the prepared page, then discards it (unless the
/// browser is gone). `deadline` is a last resort: the watcher's time limit comes first and
/// kills the browser, which ends every wait here.
pub fn print(
    cdp: &mut Cdp,
    prepared: Prepared,
    site: &Site,
    options: &PrintOptions,
    output: &Path,
    deadline: Instant,
) -> Result<Refusals, JobError> {
    let mut page = Page {
        site,
        session: prepared.session.clone(),
        refusals: Refusals::default(),
        loaded: Vec::new(),
        top: TopFrame::new(&prepared.target_id, &prepared.session),
        crashed: false,
    };
    let result = print_page(cdp, &mut page, options, output, deadline);
    if !matches!(result, Err(JobError::Cdp(CdpError::Closed))) {
        discard(cdp, &prepared);
    }
    result.map(|()| page.refusals)
}

fn print_page(
    cdp: &mut Cdp,
    page: &mut Page,
    options: &PrintOptions,
    output: &Path,
    deadline: Instant,
) -> Result<(), JobError> {
    let navigated = page.call(
        cdp,
        "Page.navigate",
        json!({ "url": intercept::entry_url(&page.site.entry) }),
        deadline,
    )?;
    if let Some(error) = navigated.get("errorText").and_then(Value::as_str) {
        return Err(JobError::Navigation(error.to_string()));
    }
    let loader = navigated["loaderId"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    wait_for_load(cdp, page, &loader, deadline)?;
    settle(cdp, page, deadline)?;
    let printed = page.call(cdp, "Page.printToPDF", options.print_params(), deadline)?;
    let stream = printed["stream"].as_str().unwrap_or_default().to_string();
    read_stream(cdp, page, &stream, output, deadline)
}

/// Until the load event of this navigation (matched by its loader, so that nothing left over
/// from the page's about:blank counts), or until the document stopped loading without one (a
/// navigation it started while loading stopped its parser).
fn wait_for_load(
    cdp: &mut Cdp,
    page: &mut Page,
    loader: &str,
    deadline: Instant,
) -> Result<(), JobError> {
    page.check()?;
    while !page.top.stopped && !page.loaded.iter().any(|seen| seen == loader) {
        if page.pump(cdp, deadline)?.is_none() {
            return Err(JobError::Cdp(CdpError::Timeout));
        }
    }
    Ok(())
}

/// Web fonts loaded and two frames drawn, then no request for `QUIET`: late images and
/// stylesheets a script adds after the load event are in the print. A page that asked for
/// nothing lately is printed at once.
fn settle(cdp: &mut Cdp, page: &mut Page, deadline: Instant) -> Result<(), JobError> {
    let fonts_and_frames = "document.fonts.ready.then(() => new Promise(done => \
        requestAnimationFrame(() => requestAnimationFrame(() => done(true)))))";
    let frames_until = (Instant::now() + FRAMES_MAX).min(deadline);
    match page.call(
        cdp,
        "Runtime.evaluate",
        json!({ "expression": fonts_and_frames, "awaitPromise": true, "returnByValue": true }),
        frames_until,
    ) {
        Ok(_) => {}
        // Past FRAMES_MAX the page is printed as it is; the answer, when it comes, is skipped.
        Err(JobError::Cdp(CdpError::Timeout)) if Instant::now() < deadline => {}
        Err(error) => return Err(error),
    }
    let give_up = (Instant::now() + SETTLE_MAX).min(deadline);
    loop {
        let quiet_until = match page.refusals.last_answer {
            Some(last) => (last + QUIET).min(give_up),
            None => return Ok(()),
        };
        if Instant::now() >= quiet_until {
            return Ok(());
        }
        page.pump(cdp, quiet_until)?;
    }
}

/// The PDF comes back as a stream, read in chunks of base64 (no single message holds a large
/// document whole).
fn read_stream(
    cdp: &mut Cdp,
    page: &mut Page,
    stream: &str,
    output: &Path,
    deadline: Instant,
) -> Result<(), JobError> {
    let file = File::create(output).map_err(JobError::Output)?;
    let mut out = BufWriter::new(file);
    loop {
        let chunk = page.call(
            cdp,
            "IO.read",
            json!({ "handle": stream, "size": 4 << 20 }),
            deadline,
        )?;
        let data = chunk["data"].as_str().unwrap_or_default();
        if chunk["base64Encoded"].as_bool() == Some(true) {
            let bytes = BASE64.decode(data).map_err(|e| {
                JobError::Output(std::io::Error::new(std::io::ErrorKind::InvalidData, e))
            })?;
            out.write_all(&bytes).map_err(JobError::Output)?;
        } else {
            out.write_all(data.as_bytes()).map_err(JobError::Output)?;
        }
        if chunk["eof"].as_bool() != Some(false) {
            break;
        }
    }
    let _ = page.call(cdp, "IO.close", json!({ "handle": stream }), deadline);
    out.flush().map_err(JobError::Output)
}
