//! quire.v1.ProcessService. The engines arrive with the processing work; until then every call
//! is authenticated and authorized (so keys and scopes behave as they will), then answered
//! UNIMPLEMENTED without being counted.

use futures::stream::BoxStream;
use quire_proto::{
    ErrorCode,
    v1::{
        CompressPdfRequest, CompressPdfResponse, OcrRequest, OcrResponse, PdfToImagesRequest,
        PdfToImagesResponse, process_service_server::ProcessService,
    },
};
use tonic::{Request, Response, Status, Streaming};

use super::gate;
use crate::{Core, auth::ScopeRule, error::ApiError};

pub struct ProcessApi {
    core: Core,
}

impl ProcessApi {
    pub fn new(core: Core) -> Self {
        Self { core }
    }

    async fn not_yet<T>(
        &self,
        metadata: &tonic::metadata::MetadataMap,
        what: &str,
    ) -> Result<T, Status> {
        gate::authorize(&self.core, metadata, ScopeRule::UPLOAD).await?;
        Err(ApiError::new(
            ErrorCode::NotImplemented,
            format!("{what} is not available on this server yet; the call was not counted"),
        )
        .into())
    }
}

#[tonic::async_trait]
impl ProcessService for ProcessApi {
    async fn ocr(
        &self,
        request: Request<Streaming<OcrRequest>>,
    ) -> Result<Response<OcrResponse>, Status> {
        self.not_yet(request.metadata(), "OCR").await
    }

    type CompressPdfStream = BoxStream<'static, Result<CompressPdfResponse, Status>>;

    async fn compress_pdf(
        &self,
        request: Request<Streaming<CompressPdfRequest>>,
    ) -> Result<Response<Self::CompressPdfStream>, Status> {
        self.not_yet(request.metadata(), "PDF compression").await
    }

    type PdfToImagesStream = BoxStream<'static, Result<PdfToImagesResponse, Status>>;

    async fn pdf_to_images(
        &self,
        request: Request<Streaming<PdfToImagesRequest>>,
    ) -> Result<Response<Self::PdfToImagesStream>, Status> {
        self.not_yet(request.metadata(), "PDF to images").await
    }
}
