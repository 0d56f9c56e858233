//! A multipart POST through one kept-alive HTTP client, as a script or pipeline calling Quire
//! uses its HTTP library. A `curl` process per call costs about 8 ms of its own start-up here
//! (`curl --version` alone), which is the client's time and not the service's: on the
//! compression corpus that was a fifth of Quire's measured total.

use std::{path::Path, sync::OnceLock};

use super::Server;

struct Client {
    runtime: tokio::runtime::Runtime,
    http: reqwest::Client,
}

fn client() -> anyhow::Result<&'static Client> {
    static CLIENT: OnceLock<Client> = OnceLock::new();
    if let Some(client) = CLIENT.get() {
        return Ok(client);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let http = reqwest::Client::builder().build()?;
    Ok(CLIENT.get_or_init(|| Client { runtime, http }))
}

/// POSTs `file` as the form's `file` part with `fields` ("name=value", as curl's `-F` takes
/// them) before it, with the server's API key; the answer's body goes to `output`, or is
/// returned. A status other than 2xx is an error carrying the problem's body.
pub fn post_form(
    server: &Server,
    path: &str,
    file: &Path,
    fields: &[&str],
    output: Option<&Path>,
) -> anyhow::Result<Vec<u8>> {
    let auth = format!("Bearer {}", server.key);
    post_multipart(
        &server.url(path),
        &[("Authorization", auth.as_str())],
        fields,
        &[file],
        output,
    )
}

/// POSTs `fields` then each of `files` as a `file` part to `url` with `headers`, as
/// [`post_form`] does.
pub fn post_multipart(
    url: &str,
    headers: &[(&str, &str)],
    fields: &[&str],
    files: &[&Path],
    output: Option<&Path>,
) -> anyhow::Result<Vec<u8>> {
    let client = client()?;
    let mut form = reqwest::multipart::Form::new();
    for field in fields {
        let (key, value) = field
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("a field is name=value: {field}"))?;
        form = form.text(key.to_owned(), value.to_owned());
    }
    for file in files {
        let name = file
            .file_name()
            .map_or_else(|| "file".to_owned(), |n| n.to_string_lossy().into_owned());
        let part = reqwest::multipart::Part::bytes(std::fs::read(file)?).file_name(name);
        form = form.part("file", part);
    }
    let mut request = client.http.post(url).multipart(form);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let body = client.runtime.block_on(async {
        let response = request.send().await?;
        let status = response.status();
        let body = response.bytes().await?;
        anyhow::ensure!(
            status.is_success(),
            "POST {url} answered {status}: {}",
            String::from_utf8_lossy(&body)
        );
        Ok(body)
    })?;
    match output {
        Some(output) => {
            std::fs::write(output, &body)?;
            Ok(Vec::new())
        }
        None => Ok(body.to_vec()),
    }
}
