//! Independent pieces of one document (images, streams) worked on by one thread per core: a
//! request has its worker process to itself, and one file's pixels and deflate are otherwise
//! one core's work while the other waits.

use std::sync::atomic::{AtomicUsize, Ordering};

/// `run` over every item of `work`, on up to one thread per core, each with its own `state`
/// (scratch buffers); the `Some` results, in no set order. Items are taken in order, so a
/// list sorted largest first ends with small items on every thread. A panicking thread loses
/// only its own results.
pub fn map<T, S, R>(
    work: &[T],
    state: impl Fn() -> S + Sync,
    run: impl Fn(&mut S, &T) -> Option<R> + Sync,
) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(work.len())
        .max(1);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut own = state();
                    let mut done = Vec::new();
                    while let Some(item) = work.get(next.fetch_add(1, Ordering::Relaxed)) {
                        done.extend(run(&mut own, item));
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| handle.join().unwrap_or_default())
            .collect()
    })
}

/// `run` for each of `parts` parts of one large piece of work (an image's rows), on up to
/// one thread per core; the results in part order, `None` if a part panicked.
pub fn parts<R: Send>(parts: usize, run: impl Fn(usize) -> R + Sync) -> Option<Vec<R>> {
    let work: Vec<usize> = (0..parts).collect();
    let mut done = map(&work, || (), |(), &part| Some((part, run(part))));
    if done.len() != parts {
        return None;
    }
    done.sort_unstable_by_key(|&(part, _)| part);
    Some(done.into_iter().map(|(_, result)| result).collect())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_item_is_run_once() {
        let work: Vec<u32> = (0..1000).collect();
        let mut out = super::map(&work, || 0u32, |_, &n| (n % 3 != 0).then_some(n * 2));
        out.sort_unstable();
        let expected: Vec<u32> = (0..1000).filter(|n| n % 3 != 0).map(|n| n * 2).collect();
        assert_eq!(out, expected);
    }

    #[test]
    fn parts_come_back_in_order() {
        let out = super::parts(37, |part| part * 3).expect("no panic");
        assert_eq!(out, (0..37).map(|part| part * 3).collect::<Vec<_>>());
    }
}
