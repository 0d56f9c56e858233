//! A page made ready for a job: a fresh browser context (no cookies, cache or storage shared
//! with another job), a page in it attached over the pipe, every domain the job needs enabled.

use std::time::Instant;

use serde_json::json;

use super::cdp::{Cdp, Event};
use super::job::JobError;

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
    /// A page target's id is also its main frame's.
    pub target_id: String,
    pub session: String,
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
