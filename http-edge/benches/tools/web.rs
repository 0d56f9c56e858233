//! A web account's session for the toolbox's routes: signed up through the page, with the
//! cookie and the anti-CSRF token a browser would send.

use std::{path::Path, process::Command};

use crate::common::Server;

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
        let mut curl = Command::new("curl");
        curl.args(["-sS", "--fail-with-body", "-o"])
            .arg(output)
            .arg("-H")
            .arg(format!("Cookie: {}", self.cookie))
            .arg("-H")
            .arg(format!("Origin: {}", self.server.url("")))
            .arg("-H")
            .arg(format!("X-CSRF-Token: {}", self.csrf));
        for field in fields {
            curl.arg("-F").arg(field);
        }
        for file in files {
            curl.arg("-F").arg(format!("file=@{}", file.display()));
        }
        let out = curl
            .arg(self.server.url(&format!("/tools/{slug}/run")))
            .output()?;
        anyhow::ensure!(
            out.status.success(),
            "{slug} failed: {}{}",
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(output).unwrap_or_default()
        );
        Ok(())
    }
}
