//! Latency figures from every recorded duration (no bucketing: a run records at most a
//! few thousand, so sorting them all is cheap and exact).

use std::time::Duration;

#[derive(Debug, Clone, Copy, Default)]
pub struct Summary {
    pub p50: Duration,
    pub p90: Duration,
    pub p99: Duration,
    pub p999: Duration,
    pub max: Duration,
}

impl Summary {
    pub fn of(mut samples: Vec<Duration>) -> Summary {
        if samples.is_empty() {
            return Summary::default();
        }
        samples.sort_unstable();
        Summary {
            p50: percentile(&samples, 50.0),
            p90: percentile(&samples, 90.0),
            p99: percentile(&samples, 99.0),
            p999: percentile(&samples, 99.9),
            max: *samples.last().expect("not empty"),
        }
    }
}

/// The nearest-rank percentile: the smallest sample with at least `p` % of the
/// samples at or below it.
fn percentile(sorted: &[Duration], p: f64) -> Duration {
    // In hundredths of a percent and whole numbers, so 99.9 % of 1,000 is exactly 999.
    let hundredths = (p * 100.0).round() as usize;
    let rank = (hundredths * sorted.len()).div_ceil(10_000);
    sorted[rank.clamp(1, sorted.len()) - 1]
}

pub fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let s = Summary::of((1..=1000).rev().map(Duration::from_millis).collect());
        assert_eq!(s.p50, Duration::from_millis(500));
        assert_eq!(s.p99, Duration::from_millis(990));
        assert_eq!(s.p999, Duration::from_millis(999));
        assert_eq!(s.max, Duration::from_millis(1000));
    }

    #[test]
    fn one_sample_is_every_percentile() {
        let s = Summary::of(vec![Duration::from_millis(7)]);
        assert_eq!(s.p50, s.max);
        assert_eq!(s.p999, Duration::from_millis(7));
    }
}
