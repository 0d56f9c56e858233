//! When to try again: after a 429 or a 503, or a connection that failed before any answer.
//!
//! The server's `Retry-After` wins when it gives one, unless it is beyond `--max-wait`: a Free
//! key's daily quota resets at the next UTC midnight, hours away, and a pipeline must fail
//! then, not sleep. Otherwise the wait doubles from one second ("equal jitter": half of it
//! fixed, half random), so that clients refused together do not all come back together.

use std::time::Duration;

const FIRST_BACKOFF: Duration = Duration::from_secs(1);

#[derive(Clone, Copy, Debug)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub retries: u32,
    /// The longest wait before any one retry.
    pub max_wait: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Next {
    Wait(Duration),
    GiveUp,
}

impl RetryPolicy {
    /// What to do after a retryable failure, `done` retries into the call; `jitter` is a
    /// random number in [0, 1).
    pub fn next(&self, done: u32, retry_after: Option<Duration>, jitter: f64) -> Next {
        if done >= self.retries {
            return Next::GiveUp;
        }
        let jitter = jitter.clamp(0.0, 1.0);
        match retry_after {
            Some(asked) if asked > self.max_wait => Next::GiveUp,
            // Never earlier than asked; up to a tenth (at most a second) later.
            Some(asked) => {
                let spread = (asked / 10).min(Duration::from_secs(1)).mul_f64(jitter);
                Next::Wait(asked + spread.min(self.max_wait - asked))
            }
            None => {
                let doubled =
                    FIRST_BACKOFF.saturating_mul(1u32.checked_shl(done).unwrap_or(u32::MAX));
                let ceiling = doubled.min(self.max_wait);
                Next::Wait(ceiling / 2 + (ceiling / 2).mul_f64(jitter))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: RetryPolicy = RetryPolicy {
        retries: 4,
        max_wait: Duration::from_secs(60),
    };

    fn ms(ms: u64) -> Next {
        Next::Wait(Duration::from_millis(ms))
    }

    #[test]
    fn backoff_doubles_with_equal_jitter_up_to_the_maximum_wait() {
        assert_eq!(POLICY.next(0, None, 0.0), ms(500));
        assert_eq!(POLICY.next(0, None, 0.5), ms(750));
        assert_eq!(POLICY.next(1, None, 0.0), ms(1000));
        assert_eq!(POLICY.next(3, None, 0.75), ms(7000));
        let short = RetryPolicy {
            retries: 40,
            max_wait: Duration::from_secs(10),
        };
        assert_eq!(short.next(39, None, 1.0), ms(10_000));
    }

    #[test]
    fn retry_after_is_honoured_never_earlier() {
        assert_eq!(POLICY.next(0, Some(Duration::from_secs(1)), 0.0), ms(1000));
        assert_eq!(POLICY.next(0, Some(Duration::from_secs(1)), 1.0), ms(1100));
        assert_eq!(
            POLICY.next(2, Some(Duration::from_secs(30)), 1.0),
            ms(31_000)
        );
        // The spread never takes the wait beyond the maximum.
        assert_eq!(
            POLICY.next(0, Some(Duration::from_secs(60)), 1.0),
            ms(60_000)
        );
        assert_eq!(POLICY.next(0, Some(Duration::ZERO), 0.7), ms(0));
    }

    #[test]
    fn a_retry_after_beyond_the_maximum_wait_gives_up_at_once() {
        // A daily quota that resets in eleven hours.
        assert_eq!(
            POLICY.next(0, Some(Duration::from_secs(11 * 3600)), 0.0),
            Next::GiveUp
        );
        let never_wait = RetryPolicy {
            retries: 4,
            max_wait: Duration::ZERO,
        };
        assert_eq!(
            never_wait.next(0, Some(Duration::from_secs(1)), 0.0),
            Next::GiveUp
        );
        assert_eq!(never_wait.next(0, None, 0.5), ms(0));
    }

    #[test]
    fn retries_run_out() {
        assert_eq!(POLICY.next(4, None, 0.0), Next::GiveUp);
        assert_eq!(
            POLICY.next(4, Some(Duration::from_secs(1)), 0.0),
            Next::GiveUp
        );
        let none = RetryPolicy {
            retries: 0,
            max_wait: Duration::from_secs(60),
        };
        assert_eq!(none.next(0, None, 0.0), Next::GiveUp);
    }
}
