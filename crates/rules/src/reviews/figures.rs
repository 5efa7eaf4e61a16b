//! A product's review figures, as the original counts them: the number of reviews is
//! its approved reviews (replies aside); the average is over those that carry a
//! rating, in hundredths, rounded half up as its `number_format` rounds; and how
//! many reviews gave each number of stars.

/// What a product's approved reviews add up to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Approved reviews (not replies).
    pub reviews: i64,
    /// Those of them that carry a rating.
    pub rated: i64,
    /// Their stars added up.
    pub stars: i64,
}

impl Tally {
    /// The average rating in hundredths (450 is 4.50); 0 without ratings.
    pub fn average_x100(&self) -> i64 {
        if self.rated <= 0 {
            return 0;
        }
        // stars / rated to two places, half up: (2 · 100 · stars + rated) / (2 · rated).
        (200 * self.stars + self.rated) / (2 * self.rated)
    }
}

/// An average in hundredths as the Store API writes `average_rating`: "4.50", or "0"
/// when there is none.
pub fn average_text(x100: i64) -> String {
    if x100 <= 0 {
        "0".into()
    } else {
        format!("{}.{:02}", x100 / 100, x100 % 100)
    }
}

/// How many approved reviews gave each number of stars: `counts[0]` one star, …,
/// `counts[4]` five.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Histogram {
    pub counts: [i64; 5],
}

impl Histogram {
    /// From (stars, reviews) pairs; anything but 1 to 5 stars is left out.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (i64, i64)>) -> Self {
        let mut h = Histogram::default();
        for (stars, n) in pairs {
            if (1..=5).contains(&stars) {
                h.counts[(stars - 1) as usize] += n;
            }
        }
        h
    }

    pub fn count(&self, stars: u8) -> i64 {
        match stars {
            1..=5 => self.counts[usize::from(stars) - 1],
            _ => 0,
        }
    }

    /// The ratings and their sum, for the average.
    pub fn rated(&self) -> (i64, i64) {
        let rated = self.counts.iter().sum();
        let stars = self
            .counts
            .iter()
            .enumerate()
            .map(|(i, n)| (i as i64 + 1) * n)
            .sum();
        (rated, stars)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(reviews: i64, ratings: &[i64]) -> Tally {
        Tally {
            reviews,
            rated: ratings.len() as i64,
            stars: ratings.iter().sum(),
        }
    }

    #[test]
    fn the_average_is_over_rated_reviews_in_hundredths() {
        assert_eq!(tally(0, &[]).average_x100(), 0);
        assert_eq!(tally(1, &[5]).average_x100(), 500);
        assert_eq!(tally(2, &[4, 5]).average_x100(), 450);
        // An unrated review counts as a review, not towards the average.
        assert_eq!(tally(3, &[4, 5]).average_x100(), 450);
        assert_eq!(tally(3, &[]).average_x100(), 0);
    }

    #[test]
    fn the_average_rounds_half_up_like_the_original() {
        // 13 / 3 = 4.333… → 4.33; 14 / 3 = 4.666… → 4.67.
        assert_eq!(tally(3, &[4, 4, 5]).average_x100(), 433);
        assert_eq!(tally(3, &[4, 5, 5]).average_x100(), 467);
        // 37 / 8 = 4.625 → 4.63 (half up).
        assert_eq!(tally(8, &[5, 5, 5, 5, 5, 4, 4, 4]).average_x100(), 463);
        // 1 / 8 = 0.125 → 0.13.
        assert_eq!(
            Tally {
                reviews: 8,
                rated: 8,
                stars: 1
            }
            .average_x100(),
            13
        );
    }

    #[test]
    fn averages_read_like_the_store_api() {
        assert_eq!(average_text(0), "0");
        assert_eq!(average_text(450), "4.50");
        assert_eq!(average_text(433), "4.33");
        assert_eq!(average_text(500), "5.00");
        assert_eq!(average_text(105), "1.05");
    }

    #[test]
    fn a_histogram_counts_each_star() {
        let h = Histogram::from_pairs([(5, 3), (4, 1), (1, 2), (0, 9), (7, 1)]);
        assert_eq!(h.counts, [2, 0, 0, 1, 3]);
        assert_eq!((h.count(5), h.count(2), h.count(0)), (3, 0, 0));
        assert_eq!(h.rated(), (6, 2 + 4 + 15));
    }
}
