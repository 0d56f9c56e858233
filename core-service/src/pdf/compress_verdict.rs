//! The final check of a compressed PDF, run by the core on several workers at once: the
//! compressor keeps both cores busy, the drawing of the check (PDFium, one thread a process)
//! would leave one idle. The sampled pages are dealt out to [`CHECK_PARTS`] jobs; if any part
//! fails, or cannot run, the input is copied over the output and handed back (savings 0).

use crate::{
    error::{ApiError, ApiResult},
    process::{Processing, staged::StagedInput},
    workers::protocol::{Answer, Checked, CompressCheck, Job, Task},
};

/// Jobs the check is split into, at most: two share the drawing on two cores; more would each
/// load both files again for fewer pages.
const CHECK_PARTS: usize = 2;

/// The size of what is handed back: `size` when the compressed file at `output` passes its
/// check, else the input's, copied over it.
pub async fn verified(
    processing: &Processing,
    input: &StagedInput,
    output: &StagedInput,
    quality: i32,
    size: u64,
) -> ApiResult<u64> {
    if size >= input.size {
        return Ok(size);
    }
    let parts = processing.pool.workers().clamp(1, CHECK_PARTS) as u32;
    let jobs = (0..parts).map(|part| {
        processing.run(Job {
            task: Some(Task::CompressCheck(CompressCheck {
                input: input.path(),
                output: output.path(),
                quality,
                max_pixels: processing.max_pixels,
                part,
                parts,
            })),
        })
    });
    let verdict = verdict(futures::future::join_all(jobs).await);
    let why = match verdict {
        Ok(pages) => {
            tracing::debug!(pages, "compressed pdf checked");
            return Ok(size);
        }
        Err(why) => why,
    };
    tracing::warn!(
        why,
        "compressed pdf failed its check: the input is handed back"
    );
    tokio::fs::copy(input.path(), output.path())
        .await
        .map_err(|e| ApiError::internal("handing back the input PDF", e))?;
    Ok(input.size)
}

/// The pages the parts compared, or the first reason one of them gives against the output.
fn verdict(answers: Vec<ApiResult<Answer>>) -> Result<u32, String> {
    let mut compared = 0;
    for answer in answers {
        match answer {
            Ok(Answer::Checked(Checked {
                compared: pages,
                failure,
            })) if failure.is_empty() => compared += pages,
            Ok(Answer::Checked(Checked { failure, .. })) => return Err(failure),
            Ok(_) => return Err("the check gave an unexpected answer".to_owned()),
            // A worker that crashed or hung drawing the output is a reason not to hand it out.
            Err(e) => return Err(format!("the check could not run: {}", e.message)),
        }
    }
    Ok(compared)
}

#[cfg(test)]
mod tests {
    use quire_proto::ErrorCode;

    use super::*;

    fn checked(compared: u32, failure: &str) -> ApiResult<Answer> {
        Ok(Answer::Checked(Checked {
            compared,
            failure: failure.to_owned(),
        }))
    }

    #[test]
    fn every_part_must_pass_and_one_that_cannot_run_fails_the_output() {
        assert_eq!(verdict(vec![checked(4, ""), checked(3, "")]), Ok(7));
        assert_eq!(
            verdict(vec![checked(4, ""), checked(0, "page 2 lost a line")]),
            Err("page 2 lost a line".to_owned())
        );
        let crashed = Err(ApiError::new(
            ErrorCode::ProcessingFailed,
            "the worker crashed",
        ));
        let why = verdict(vec![checked(4, ""), crashed]).expect_err("no verdict");
        assert!(why.contains("crashed"), "{why}");
    }
}
