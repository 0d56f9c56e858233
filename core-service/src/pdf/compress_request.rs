//! A compression request on the core: the worker writes the compressed PDF beside the staged
//! input, and it streams back from there; both files go when the answer is done.

use crate::{
    error::{ApiError, ApiResult},
    process::{ByteStream, Processing, read_stream, staged::StagedInput, unexpected_answer},
    workers::protocol::{Answer, Compress, Job, Task},
};

pub struct Compressed {
    pub original_size: u64,
    pub compressed_size: u64,
    /// Share of the original saved, in percent, rounded to two decimals.
    pub savings_percent: f64,
    pub pdf: ByteStream,
}

pub async fn compress(
    processing: &Processing,
    input: StagedInput,
    quality: i32,
) -> ApiResult<Compressed> {
    let output = input.sibling("compressed.pdf");
    let answer = processing
        .run(Job {
            task: Some(Task::Compress(Compress {
                input: input.path(),
                output: output.path(),
                quality,
                max_pixels: processing.max_pixels,
            })),
        })
        .await?;
    let Answer::Compressed(done) = answer else {
        return Err(unexpected_answer());
    };
    let size =
        super::compress_verdict::verified(processing, &input, &output, quality, done.size).await?;
    let original_size = input.size;
    drop(input);
    let file = tokio::fs::File::open(output.path())
        .await
        .map_err(|e| ApiError::internal("reading the compressed PDF", e))?;
    // The output file lives as long as the answer streams.
    let pdf = read_stream(file, output, "reading the compressed PDF");
    Ok(Compressed {
        original_size,
        compressed_size: size,
        savings_percent: savings_percent(original_size, size),
        pdf: Box::pin(pdf),
    })
}

/// Percent of `original` saved, two decimals.
pub fn savings_percent(original: u64, compressed: u64) -> f64 {
    if original == 0 || compressed >= original {
        return 0.0;
    }
    let saved = (original - compressed) as f64 / original as f64 * 100.0;
    (saved * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn savings_have_two_decimals_and_never_go_negative() {
        assert_eq!(savings_percent(1000, 625), 37.5);
        assert_eq!(savings_percent(3, 2), 33.33);
        assert_eq!(savings_percent(1000, 1000), 0.0);
        assert_eq!(savings_percent(0, 0), 0.0);
    }
}
