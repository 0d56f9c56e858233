//! A web account's session for the toolbox's routes: signed up through the page, with the
//! cookie and the anti-CSRF token a browser would send. Runs go through the benches' one
//! kept-alive HTTP client, as a browser's would (no process start-up per call).

use std::{path::Path, process::Command};

use crate::common::{Server, post_multipart};

pub const WEB_EMAIL: &str = "web-bench@example.com";

/// A web account's session: the cookie and the anti-CSRF token its pages carry.
pub struct WebSession<'a> {
    server: &'a Server,
    cookie: String,
    csrf: String,
}

impl<'a> WebSession<'a> {
    pub fn sign_up(server: &'a Server) -> anyhow::Result<WebSession<'a>> {
        let origin = server.url("");
        let out = Command::new("curl")
            .args(["-sS", "-D", "-", "-o", "/dev/null", "-H"])
            .arg(format!("Origin: {origin}"))
            .args([
                "--data-urlencode",
                &format!("email={WEB_EMAIL}"),
                "--data-urlencode",
                "password=correct horse battery staple",
            ])
            .arg(server.url("/signup"))
            .output()?;
        let headers = String::from_utf8(out.stdout)?;
        let cookie = headers
            .lines()
            .find(|l| {
                l.to_ascii_lowercase()
                    .starts_with("set-cookie: quire_session=")
            })
            .and_then(|l| l.split_once(": ")?.1.split(';').next().map(str::to_owned))
            .ok_or_else(|| anyhow::anyhow!("sign-up gave no session cookie:\n{headers}"))?;
        let page = Command::new("curl")
            .args(["-sS", "-H"])
            .arg(format!("Cookie: {cookie}"))
            .arg(server.url("/tools/merge"))
            .output()?;
        let page = String::from_utf8(page.stdout)?;
        let csrf = page
            .split("name=\"csrf-token\" content=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .ok_or_else(|| anyhow::anyhow!("no anti-CSRF token in the tool page"))?
            .to_owned();
        Ok(WebSession {
            server,
            cookie,
            csrf,
        })
    }

    pub fn run(
        &self,
        slug: &str,
        fields: &[&str],
        files: &[&Path],
        output: &Path,
    ) -> anyhow::Result<()> {
        let origin = self.server.url("");
        let headers = [
            ("Cookie", self.cookie.as_str()),
            ("Origin", origin.as_str()),
            ("X-CSRF-Token", self.csrf.as_str()),
        ];
        let url = self.server.url(&format!("/tools/{slug}/run"));
        post_multipart(&url, &headers, fields, files, Some(output))
            .map_err(|e| anyhow::anyhow!("{slug} failed: {e}"))?;
        Ok(())
    }
}
