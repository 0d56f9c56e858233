//! The file part's chunking, on bodies delivered in reads of every size.

use super::*;

/// A form with `data` as its file, then a `quality` field, delivered in reads of `sizes`
/// (cycled): socket reads come in any size.
fn body(data: &[u8], sizes: &[usize]) -> (HeaderMap, Body) {
    let mut form =
        b"--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\n\r\n"
            .to_vec();
    form.extend_from_slice(data);
    form.extend_from_slice(
        b"\r\n--XyZ\r\nContent-Disposition: form-data; name=\"quality\"\r\n\r\nscreen\r\n--XyZ--\r\n",
    );
    let mut reads = Vec::new();
    let mut form = Bytes::from(form);
    for &size in sizes.iter().cycle() {
        if form.is_empty() {
            break;
        }
        let take = size.min(form.len());
        reads.push(Ok::<_, std::io::Error>(form.split_to(take)));
    }
    let mut headers = HeaderMap::new();
    headers.insert(
        axum::http::header::CONTENT_TYPE,
        "multipart/form-data; boundary=XyZ".parse().unwrap(),
    );
    (headers, Body::from_stream(futures::stream::iter(reads)))
}

#[tokio::test]
async fn chunks_stay_between_the_bounds_and_keep_every_byte() {
    let data: Vec<u8> = (0..3_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
    for sizes in [
        &[1_000_000][..],
        &[100, 70_000, 5, 300_000, 20_000][..],
        &[4096][..],
        &[CHUNK_SIZE + 1, MIN_CHUNK - 1][..],
    ] {
        let (headers, body) = body(&data, sizes);
        let part = file_part(&headers, body, &["quality"]).await.unwrap();
        let pieces: Vec<Piece> = part.pieces.map(Result::unwrap).collect().await;
        let (last, chunks) = pieces.split_last().unwrap();
        let Piece::Trailer(fields) = last else {
            panic!("the field after the file is lost")
        };
        assert_eq!(fields["quality"], "screen");
        let chunks: Vec<&Bytes> = chunks
            .iter()
            .map(|piece| match piece {
                Piece::Chunk(bytes) => bytes,
                Piece::Trailer(_) => panic!("two trailers"),
            })
            .collect();
        let (tail, full) = chunks.split_last().unwrap();
        assert!(tail.len() <= CHUNK_SIZE, "reads {sizes:?}");
        for chunk in full {
            assert!(
                (MIN_CHUNK..=CHUNK_SIZE).contains(&chunk.len()),
                "reads {sizes:?}: a chunk of {} bytes",
                chunk.len()
            );
        }
        let joined: Vec<u8> = chunks
            .iter()
            .flat_map(|chunk| chunk.iter().copied())
            .collect();
        assert_eq!(joined, data, "reads {sizes:?}");
    }
}

#[tokio::test]
async fn the_parser_reads_no_further_than_it_needs() {
    let data = vec![7u8; 4_000_000];
    let (headers, body) = body(&data, &[100_000]);
    let pulled = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = pulled.clone();
    // A client faster than the server: every read is ready at once.
    let reads = body.into_data_stream().inspect(move |_| {
        counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    let part = file_part(&headers, Body::from_stream(reads), &["quality"])
        .await
        .unwrap();
    let mut pieces = part.pieces;
    let Some(Ok(Piece::Chunk(first))) = pieces.next().await else {
        panic!("no first chunk")
    };
    let pulled = pulled.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        pulled <= 8,
        "{pulled} reads of 100 kB taken in for a first chunk of {} bytes",
        first.len()
    );
}
