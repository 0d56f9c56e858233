//! A small synchronous Chrome DevTools Protocol client over `--remote-debugging-pipe`.
//!
//! The pipe rather than a DevTools port: a port on localhost is reachable by every local user
//! and process for as long as the browser runs, the pipe only by us. The crates that drive
//! Chromium (`headless_chrome`, `chromiumoxide`) speak CDP over a WebSocket to such a port, so
//! this client is written here: JSON messages, each ended by a NUL byte, Chromium reading fd 3
//! and writing fd 4.
//!
//! One reader thread turns the browser's stream into messages on a channel. The caller's thread
//! does everything else: it sends a command and pumps messages until the answer with its id
//! arrives, handing every event met on the way to the caller's handler (the request
//! interceptor has to answer `Fetch.requestPaused` while `Page.navigate` is still waiting).

use std::io::{BufRead, BufReader, PipeReader, PipeWriter, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// What can go wrong talking to the browser.
#[derive(Debug)]
pub enum CdpError {
    /// The pipe closed: the browser exited or was killed.
    Closed,
    /// No answer in time.
    Timeout,
    /// The browser answered the command with an error.
    Protocol { method: String, message: String },
    /// The caller's event handler stopped the wait (e.g. the page crashed).
    Abandoned,
}

impl std::fmt::Display for CdpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CdpError::Closed => write!(f, "chromium closed its DevTools pipe"),
            CdpError::Timeout => write!(f, "chromium did not answer in time"),
            CdpError::Protocol { method, message } => {
                write!(f, "chromium refused {method}: {message}")
            }
            CdpError::Abandoned => write!(f, "the wait for chromium was abandoned"),
        }
    }
}

/// An event: its method, parameters and the session it came from (None: the browser's own).
#[derive(Debug)]
pub struct Event {
    pub method: String,
    pub params: Value,
    pub session: Option<String>,
}

pub struct Cdp {
    writer: PipeWriter,
    incoming: Receiver<Value>,
    next_id: u64,
}

impl Cdp {
    /// `to_browser` is the parent's end of the pipe Chromium reads as fd 3, `from_browser` the
    /// end of the one it writes as fd 4.
    pub fn new(to_browser: PipeWriter, from_browser: PipeReader) -> std::io::Result<Cdp> {
        let (sender, incoming) = mpsc::channel();
        thread::Builder::new()
            .name("cdp-reader".into())
            .spawn(move || read_messages(from_browser, sender))?;
        Ok(Cdp {
            writer: to_browser,
            incoming,
            next_id: 1,
        })
    }

    /// Sends a command without waiting for its answer (the answer is dropped when met).
    pub fn send(
        &mut self,
        method: &str,
        params: Value,
        session: Option<&str>,
    ) -> Result<u64, CdpError> {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = Value::from(session);
        }
        let mut bytes = serde_json::to_vec(&message).map_err(|_| CdpError::Closed)?;
        bytes.push(0);
        self.writer
            .write_all(&bytes)
            .map_err(|_| CdpError::Closed)?;
        Ok(id)
    }

    /// Sends a command and waits for its result until `deadline`, giving each event that
    /// arrives meanwhile to `on_event` (which may send commands of its own, and returns false
    /// to stop waiting: `CdpError::Abandoned`).
    pub fn call(
        &mut self,
        method: &str,
        params: Value,
        session: Option<&str>,
        deadline: Instant,
        on_event: &mut dyn FnMut(&mut Cdp, Event) -> bool,
    ) -> Result<Value, CdpError> {
        let id = self.send(method, params, session)?;
        loop {
            let message = self.next_message(deadline)?;
            if message.get("id").and_then(Value::as_u64) == Some(id) {
                if let Some(error) = message.get("error") {
                    let text = error
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or("unknown error");
                    return Err(CdpError::Protocol {
                        method: method.to_string(),
                        message: text.to_string(),
                    });
                }
                return Ok(message.get("result").cloned().unwrap_or(Value::Null));
            }
            if let Some(event) = as_event(message)
                && !on_event(self, event)
            {
                return Err(CdpError::Abandoned);
            }
        }
    }

    /// Waits until `deadline` for the next event (answers to earlier `send`s are skipped);
    /// `Ok(None)` when the deadline passes with nothing.
    pub fn next_event(&mut self, deadline: Instant) -> Result<Option<Event>, CdpError> {
        loop {
            match self.next_message(deadline) {
                Ok(message) => {
                    if let Some(event) = as_event(message) {
                        return Ok(Some(event));
                    }
                }
                Err(CdpError::Timeout) => return Ok(None),
                Err(other) => return Err(other),
            }
        }
    }

    fn next_message(&mut self, deadline: Instant) -> Result<Value, CdpError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self
            .incoming
            .recv_timeout(wait.max(Duration::from_millis(1)))
        {
            Ok(message) => Ok(message),
            Err(RecvTimeoutError::Timeout) => Err(CdpError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(CdpError::Closed),
        }
    }
}

fn as_event(message: Value) -> Option<Event> {
    let Value::Object(mut fields) = message else {
        return None;
    };
    let Some(Value::String(method)) = fields.remove("method") else {
        return None;
    };
    let params = fields.remove("params").unwrap_or(Value::Null);
    let session = match fields.remove("sessionId") {
        Some(Value::String(session)) => Some(session),
        _ => None,
    };
    Some(Event {
        method,
        params,
        session,
    })
}

/// The reader thread: ends when the browser closes its end (exit, crash, kill) or when the
/// client is dropped.
fn read_messages(from_browser: PipeReader, sender: mpsc::Sender<Value>) {
    let mut reader = BufReader::with_capacity(1 << 16, from_browser);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match reader.read_until(0, &mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if buffer.last() == Some(&0) {
            buffer.pop();
        }
        // A message that is not JSON cannot be answered to anyone: skipped.
        let Ok(message) = serde_json::from_slice::<Value>(&buffer) else {
            continue;
        };
        if sender.send(message).is_err() {
            return;
        }
    }
}
