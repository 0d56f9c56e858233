//! One print: a fresh browser context (no cookies, cache or storage shared with another job), a
//! page in it whose every request is answered by the interceptor, then `Page.printToPDF`.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

use super::cdp::{Cdp, CdpError, Event};
use super::intercept::{self, Refusals};
use super::options::PrintOptions;
use crate::site::Site;

/// After the load event, the page is printed once no request came for this long...
const QUIET: Duration = Duration::from_millis(100);
/// ...or after this long in any case (a page that keeps polling).
const SETTLE_MAX: Duration = Duration::from_secs(2);

/// Why a job failed, before it is turned into a `ConvertError` by the caller (which knows
/// whether the watcher killed the browser).
#[derive(Debug)]
pub enum JobError {
    Cdp(CdpError),
    /// The page's renderer crashed (out of memory, or a Chromium bug the page triggers).
    Crashed,
    /// The browser could not open the page.
    Navigation(String),
    Output(std::io::Error),
}

impl From<CdpError> for JobError {
    fn from(error: CdpError) -> Self {
        JobError::Cdp(error)
    }
}

/// Scripts may not open sockets the interceptor cannot see: WebSocket and WebTransport refuse
/// (the URL is reported as blocked), WebRTC is absent. The dead proxy stops them anyway; this
/// makes the refusal visible and immediate.
const NO_SOCKETS: &str = r#"(() => {
  const report = (url) => { try { globalThis.__quireBlocked(String(url)); } catch (_) {} };
  const refuse = (name) => function (url) { report(url); throw new DOMException(name + " is not available when printing", "SecurityError"); };
  for (const name of ["WebSocket", "WebTransport", "RTCPeerConnection", "webkitRTCPeerConnection"]) {
    if (name in globalThis) { Object.defineProperty(globalThis, name, { value: refuse(name), configurable: false, writable: false }); }
  }
})();"#;

/// A page made ready before its job: its own browser context, attached, every domain the job
/// needs enabled. Making one costs a renderer process start (a few hundred ms), so `Chromium`
/// keeps one spare between jobs when it is given idle time.
#[derive(Debug)]
pub struct Prepared {
    context_id: String,
    target_id: String,
    session: String,
}

/// Makes a fresh page in a fresh browser context.
pub fn prepare(cdp: &mut Cdp, deadline: Instant) -> Result<Prepared, JobError> {
    let noop = &mut |_: &mut Cdp, _: Event| true;
    let context = cdp.call(
        "Target.createBrowserContext",
        json!({}),
        None,
        deadline,
        noop,
    )?;
    let context_id = context["browserContextId"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let ready = prepare_in(cdp, &context_id, deadline);
    if ready.is_err() {
        let _ = cdp.send(
            "Target.disposeBrowserContext",
            json!({ "browserContextId": context_id }),
            None,
        );
    }
    ready
}

fn prepare_in(cdp: &mut Cdp, context_id: &str, deadline: Instant) -> Result<Prepared, JobError> {
    let noop = &mut |_: &mut Cdp, _: Event| true;
    cdp.call(
        "Browser.setDownloadBehavior",
        json!({ "behavior": "deny", "browserContextId": context_id }),
        None,
        deadline,
        noop,
    )?;
    let target = cdp.call(
        "Target.createTarget",
        json!({ "url": "about:blank", "browserContextId": context_id }),
        None,
        deadline,
        noop,
    )?;
    let target_id = target["targetId"].as_str().unwrap_or_default().to_string();
    let attached = cdp.call(
        "Target.attachToTarget",
        json!({ "targetId": target_id, "flatten": true }),
        None,
        deadline,
        noop,
    )?;
    let session = attached["sessionId"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let domains = [
        (
            "Fetch.enable",
            json!({ "patterns": [{ "urlPattern": "*", "requestStage": "Request" }] }),
        ),
        ("Page.enable", json!({})),
        ("Page.setLifecycleEventsEnabled", json!({ "enabled": true })),
        ("Inspector.enable", json!({})),
        // Bindings report through Runtime events, which only flow with the domain enabled.
        ("Runtime.enable", json!({})),
        ("Runtime.addBinding", json!({ "name": "__quireBlocked" })),
        (
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": NO_SOCKETS }),
        ),
    ];
    for (method, params) in domains {
        cdp.call(method, params, Some(&session), deadline, noop)?;
    }
    Ok(Prepared {
        context_id: context_id.to_string(),
        target_id,
        session,
    })
}

/// Closes the page and drops its context (cookies, cache, storage) without waiting: the browser
/// takes a second to tear a renderer down, which no user should wait for. The answers are
/// skipped when a later wait meets them.
pub fn discard(cdp: &mut Cdp, prepared: &Prepared) {
    let _ = cdp.send(
        "Target.closeTarget",
        json!({ "targetId": prepared.target_id }),
        None,
    );
    let _ = cdp.send(
        "Target.disposeBrowserContext",
        json!({ "browserContextId": prepared.context_id }),
        None,
    );
}

struct Page<'a> {
    site: &'a Site,
    session: String,
    refusals: Refusals,
    /// Loader ids of the navigations that reached their load event.
    loaded: Vec<String>,
    crashed: bool,
}

impl Page<'_> {
    fn on_event(&mut self, cdp: &mut Cdp, event: Event) {
        if event.session.as_deref() != Some(self.session.as_str()) {
            return;
        }
        match event.method.as_str() {
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
                !self.crashed
            },
        );
        if self.crashed {
            return Err(JobError::Crashed);
        }
        Ok(result?)
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
/// from the page's about:blank counts).
fn wait_for_load(
    cdp: &mut Cdp,
    page: &mut Page,
    loader: &str,
    deadline: Instant,
) -> Result<(), JobError> {
    while !page.loaded.iter().any(|seen| seen == loader) {
        match cdp.next_event(deadline)? {
            Some(event) => page.on_event(cdp, event),
            None => return Err(JobError::Cdp(CdpError::Timeout)),
        }
        if page.crashed {
            return Err(JobError::Crashed);
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
    page.call(
        cdp,
        "Runtime.evaluate",
        json!({ "expression": fonts_and_frames, "awaitPromise": true }),
        deadline,
    )?;
    let give_up = (Instant::now() + SETTLE_MAX).min(deadline);
    loop {
        let quiet_until = match page.refusals.last_answer {
            Some(last) => (last + QUIET).min(give_up),
            None => return Ok(()),
        };
        if Instant::now() >= quiet_until {
            return Ok(());
        }
        if let Some(event) = cdp.next_event(quiet_until)? {
            page.on_event(cdp, event);
            if page.crashed {
                return Err(JobError::Crashed);
            }
        }
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
