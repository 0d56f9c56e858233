//! quire.v1.ToolService: admit a web session (counted), read the options and stage and scan
//! every file, run the tool, stream the summary then the result.

use futures::{StreamExt, stream::BoxStream};
use quire_proto::v1::{
    RunToolRequest, RunToolResponse, run_tool_response, tool_service_server::ToolService,
};
use tonic::{Request, Response, Status, Streaming};

use super::{
    file_service::cancelled,
    gate::{self, respond},
};
use crate::{Core, tools};

pub struct ToolApi {
    core: Core,
}

impl ToolApi {
    pub fn new(core: Core) -> Self {
        Self { core }
    }
}

#[tonic::async_trait]
impl ToolService for ToolApi {
    type RunToolStream = BoxStream<'static, Result<RunToolResponse, Status>>;

    async fn run_tool(
        &self,
        request: Request<Streaming<RunToolRequest>>,
    ) -> Result<Response<Self::RunToolStream>, Status> {
        let mut admitted = gate::admit_web_session(&self.core, request.metadata()).await?;
        let result = async {
            let messages = request
                .into_inner()
                .map(|message| message.map_err(cancelled));
            let (options, inputs, verdicts) = tools::intake::receive(&self.core, messages).await?;
            tools::run(&self.core.processing, options, inputs, verdicts).await
        }
        .await;
        match result {
            Ok(tools::ToolResult { summary, bytes }) => {
                let stream = futures::stream::once(async move {
                    Ok(RunToolResponse {
                        payload: Some(run_tool_response::Payload::Summary(summary)),
                    })
                })
                .chain(bytes.map(|piece| {
                    piece
                        .map(|chunk| RunToolResponse {
                            payload: Some(run_tool_response::Payload::Chunk(chunk)),
                        })
                        .map_err(Status::from)
                }))
                .boxed();
                let metadata = admitted.metadata();
                Ok(respond(admitted.until_sent(stream), metadata))
            }
            Err(err) => Err(admitted.fail(err).await.into()),
        }
    }
}
