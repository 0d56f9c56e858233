//! The document printed is the one uploaded: its top frame may not leave it.
//!
//! Every way a page can navigate its top frame through the network (a meta refresh, `location`
//! set by a script or by a frame inside, a form submitted, `location.reload()`,
//! `window.open(url, "_self")`) ends in a document request of the top frame, which the
//! interceptor sees first: the entry's request is served, every later one is aborted (the
//! browser keeps the document it has, no error page replaces it) and listed as not fetched.
//! Popups are refused by the browser (`--block-new-web-contents`); frames inside the page may
//! navigate as they like, their requests answered by the interceptor.
//!
//! What never reaches the network cannot be stopped there: `about:blank`, a `blob:` URL, or
//! `history.back()` to the page's about:blank commit a new document in the top frame, and
//! `window.close()` may end the page. These are noticed from the page's events and the job is
//! refused at once (`Left`), instead of waiting for a load event that never comes or printing
//! a document that is not the upload.
//!
//! A navigation that starts while the document loads stops its parser, even when the
//! navigation itself is refused: the document then stops loading without a load event, and is
//! printed as far as it got.

use serde_json::Value;

use super::cdp::Event;

/// How the page left the uploaded document.
#[derive(Debug)]
pub enum Left {
    /// Another document took the top frame: its URL.
    Replaced(String),
    /// The page's window was closed, or its target went away.
    Closed,
}

impl Left {
    /// What the user is told.
    pub fn explain(&self) -> String {
        match self {
            Left::Replaced(url) => format!(
                "the page replaced itself with another document ({url}) before it was printed; only the uploaded page is printed: remove the script that leaves it (a link to about:blank or a blob: URL, history.back())"
            ),
            Left::Closed => "the page closed its own window before it was printed; remove the script that closes it (window.close())".into(),
        }
    }
}

/// What the job knows of the page's top frame.
pub struct TopFrame {
    /// A page target's id is its main frame's id.
    frame_id: String,
    session: String,
    /// The entry's request went by: every later document request of the top frame leaves it.
    entry_requested: bool,
    /// The entry's document committed: any later commit in the top frame replaces it.
    entry_committed: bool,
    /// The entry's document stopped loading, by its load event or by a navigation that
    /// stopped its parser.
    pub stopped: bool,
    pub left: Option<Left>,
}

impl TopFrame {
    pub fn new(frame_id: &str, session: &str) -> TopFrame {
        TopFrame {
            frame_id: frame_id.to_string(),
            session: session.to_string(),
            entry_requested: false,
            entry_committed: false,
            stopped: false,
            left: None,
        }
    }

    /// Whether a paused request is a navigation of the top frame away from the entry (the first
    /// document request of the top frame is the entry's own).
    pub fn refuses(&mut self, paused: &Value) -> bool {
        if paused["resourceType"] != "Document" || paused["frameId"] != self.frame_id.as_str() {
            return false;
        }
        if self.entry_requested {
            return true;
        }
        self.entry_requested = true;
        false
    }

    /// Notes what an event says of the top frame: a commit after the entry's, the entry's
    /// document stopping, the page's session ending. Events of the page before the entry's
    /// request (its about:blank) say nothing.
    pub fn on_event(&mut self, event: &Event) {
        if event.method == "Target.detachedFromTarget"
            && event.session.is_none()
            && event.params["sessionId"] == self.session.as_str()
        {
            self.leave(Left::Closed);
            return;
        }
        if event.session.as_deref() != Some(self.session.as_str()) || !self.entry_requested {
            return;
        }
        match event.method.as_str() {
            "Page.frameNavigated" if event.params["frame"]["id"] == self.frame_id.as_str() => {
                if self.entry_committed {
                    let url = event.params["frame"]["url"].as_str().unwrap_or("?");
                    self.leave(Left::Replaced(url.to_string()));
                } else {
                    self.entry_committed = true;
                }
            }
            "Page.frameStoppedLoading"
                if self.entry_committed && event.params["frameId"] == self.frame_id.as_str() =>
            {
                self.stopped = true;
            }
            "Inspector.detached" => self.leave(Left::Closed),
            _ => {}
        }
    }

    fn leave(&mut self, left: Left) {
        if self.left.is_none() {
            self.left = Some(left);
        }
    }
}

/// Whether chromium's refusal of a command on the page's session comes from what the page did
/// (it navigated, closed itself, or destroyed the context the command ran in) rather than from
/// the browser: the page's fault, told to the user, never an internal error.
pub fn caused_by_page(message: &str) -> bool {
    const PAGE_CAUSED: [&str; 7] = [
        "navigated",
        "closed",
        "context",
        "not found",
        "detached",
        "printing failed",
        "no target",
    ];
    let message = message.to_ascii_lowercase();
    PAGE_CAUSED.iter().any(|cause| message.contains(cause))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(method: &str, params: Value, session: Option<&str>) -> Event {
        Event {
            method: method.into(),
            params,
            session: session.map(String::from),
        }
    }

    #[test]
    fn only_the_entry_request_of_the_top_frame_passes() {
        let mut top = TopFrame::new("F", "S");
        let document = |frame: &str| json!({ "resourceType": "Document", "frameId": frame });
        assert!(!top.refuses(&json!({ "resourceType": "Image", "frameId": "F" })));
        assert!(!top.refuses(&document("F")), "the entry");
        assert!(!top.refuses(&document("child")), "a frame inside navigates");
        assert!(top.refuses(&document("F")), "the top frame leaves");
        assert!(top.refuses(&document("F")), "and again");
    }

    #[test]
    fn a_second_commit_or_a_detach_is_leaving() {
        let mut top = TopFrame::new("F", "S");
        let commit = |url: &str| {
            event(
                "Page.frameNavigated",
                json!({ "frame": { "id": "F", "url": url } }),
                Some("S"),
            )
        };
        top.on_event(&commit("about:blank"));
        assert!(
            top.left.is_none(),
            "before the entry's request: its about:blank"
        );
        top.refuses(&json!({ "resourceType": "Document", "frameId": "F" }));
        top.on_event(&commit("https://document.invalid/index.html"));
        top.on_event(&event(
            "Page.frameStoppedLoading",
            json!({ "frameId": "F" }),
            Some("S"),
        ));
        assert!(top.stopped && top.left.is_none());
        top.on_event(&commit("about:blank"));
        assert!(matches!(top.left, Some(Left::Replaced(ref url)) if url == "about:blank"));

        let mut top = TopFrame::new("F", "S");
        top.on_event(&event(
            "Target.detachedFromTarget",
            json!({ "sessionId": "other" }),
            None,
        ));
        assert!(top.left.is_none(), "another page's session");
        top.on_event(&event(
            "Target.detachedFromTarget",
            json!({ "sessionId": "S" }),
            None,
        ));
        assert!(matches!(top.left, Some(Left::Closed)));
    }

    #[test]
    fn refusals_the_page_causes_are_told_apart() {
        assert!(caused_by_page("Inspected target navigated or closed"));
        assert!(caused_by_page("Execution context was destroyed."));
        assert!(caused_by_page("Session with given id not found."));
        assert!(!caused_by_page("Invalid parameters"));
    }
}
