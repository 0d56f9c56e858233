//! The web toolbox as its tests call it: a session's ToolService client, the request stream of
//! options and files, PDFs whose pages say who they are, and the ZIPs that come back.

use quire_proto::v1::{
    self, account_service_client::AccountServiceClient, run_tool_request::Payload,
    tool_options::Tool, tool_service_client::ToolServiceClient,
};
use tonic::transport::Channel;
use tonic_types::StatusExt;

use crate::{
    Stack, in_session,
    pdf_check::{Facts, normalise},
    pdf_fixtures::{A4, text_pdf},
};

pub fn reason(status: &tonic::Status) -> String {
    status
        .get_details_error_info()
        .map(|info| info.reason)
        .unwrap_or_default()
}

/// A PDF whose pages say `<name> page <n>`.
pub fn labelled(name: &str, pages: usize) -> Vec<u8> {
    let texts: Vec<String> = (1..=pages).map(|n| format!("{name} page {n}")).collect();
    let pages: Vec<[&str; 1]> = texts.iter().map(|t| [t.as_str()]).collect();
    let pages: Vec<&[&str]> = pages.iter().map(|p| &p[..]).collect();
    text_pdf(&pages, A4)
}

pub fn messages(tool: Tool, files: &[(&str, Vec<u8>)]) -> Vec<v1::RunToolRequest> {
    let mut out = vec![v1::RunToolRequest {
        payload: Some(Payload::Options(v1::ToolOptions { tool: Some(tool) })),
    }];
    for (name, bytes) in files {
        out.push(v1::RunToolRequest {
            payload: Some(Payload::File(v1::ToolInputFile {
                filename: (*name).into(),
            })),
        });
        for chunk in bytes.chunks(100_000) {
            out.push(v1::RunToolRequest {
                payload: Some(Payload::Chunk(chunk.to_vec().into())),
            });
        }
    }
    out
}

pub struct Toolbox {
    pub client: ToolServiceClient<Channel>,
    pub session: String,
}

impl Toolbox {
    pub async fn open(stack: &Stack, email: &str) -> Toolbox {
        let mut accounts = AccountServiceClient::connect(stack.grpc.clone())
            .await
            .unwrap();
        accounts
            .sign_up(v1::SignUpRequest {
                email: email.into(),
                password: "correct horse battery staple".into(),
                client_address: "192.0.2.1".into(),
            })
            .await
            .unwrap();
        // Sign-up opens no session (it answers alike for a known address): log in.
        let session = accounts
            .log_in(v1::LogInRequest {
                email: email.into(),
                password: "correct horse battery staple".into(),
                client_address: "192.0.2.1".into(),
            })
            .await
            .unwrap()
            .into_inner()
            .session
            .unwrap();
        Toolbox {
            client: ToolServiceClient::connect(stack.grpc.clone())
                .await
                .unwrap(),
            session: session.token,
        }
    }

    /// Runs a tool; the summary and the result's bytes.
    pub async fn run(
        &mut self,
        tool: Tool,
        files: &[(&str, Vec<u8>)],
    ) -> Result<(v1::ToolSummary, Vec<u8>), tonic::Status> {
        let request = in_session(futures::stream::iter(messages(tool, files)), &self.session);
        let mut stream = self.client.run_tool(request).await?.into_inner();
        let mut summary = None;
        let mut bytes = Vec::new();
        while let Some(message) = stream.message().await? {
            match message.payload {
                Some(v1::run_tool_response::Payload::Summary(s)) => summary = Some(s),
                Some(v1::run_tool_response::Payload::Chunk(c)) => bytes.extend_from_slice(&c),
                None => {}
            }
        }
        Ok((summary.expect("a summary first"), bytes))
    }
}

pub fn texts(facts: &Facts) -> Vec<String> {
    facts.pages.iter().map(|p| normalise(&p.text)).collect()
}

pub fn zip_entries(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
    // A minimal reader of stored entries, through the central directory.
    let end = (0..zip.len() - 21)
        .rev()
        .find(|&i| zip[i..i + 4] == [0x50, 0x4b, 0x05, 0x06])
        .expect("end of central directory");
    let u16_at = |i: usize| u16::from_le_bytes([zip[i], zip[i + 1]]) as usize;
    let u32_at = |i: usize| u32::from_le_bytes(zip[i..i + 4].try_into().unwrap()) as usize;
    let mut at = u32_at(end + 16);
    let mut entries = Vec::new();
    for _ in 0..u16_at(end + 10) {
        let size = u32_at(at + 20);
        let name_len = u16_at(at + 28);
        let skip = name_len + u16_at(at + 30) + u16_at(at + 32);
        let name = String::from_utf8(zip[at + 46..at + 46 + name_len].to_vec()).unwrap();
        let local = u32_at(at + 42);
        let data = local + 30 + u16_at(local + 26) + u16_at(local + 28);
        entries.push((name, zip[data..data + size].to_vec()));
        at += 46 + skip;
    }
    entries
}
