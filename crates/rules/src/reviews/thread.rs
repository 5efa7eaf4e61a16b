//! Replies nested under the reviews they answer, as a product page shows them: each
//! review with its replies, oldest first, each reply with its own. A reply whose
//! parent is not shown (held, spam, in the trash) is not shown either.

use std::collections::HashMap;

use super::{Review, ReviewId};

/// A review and the replies under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub review: Review,
    pub replies: Vec<Node>,
}

/// Nests `replies` (any depth, in the order they should appear under their parent)
/// under `reviews` (kept in their order).
pub fn nest(reviews: Vec<Review>, replies: Vec<Review>) -> Vec<Node> {
    let mut children: HashMap<ReviewId, Vec<Review>> = HashMap::new();
    for reply in replies {
        if let Some(parent) = reply.parent_id {
            children.entry(parent).or_default().push(reply);
        }
    }
    reviews
        .into_iter()
        .map(|review| grow(review, &mut children))
        .collect()
}

/// Each reply is taken out of `children` once, so even data that loops cannot make
/// this go round for ever.
fn grow(review: Review, children: &mut HashMap<ReviewId, Vec<Review>>) -> Node {
    let mine = children.remove(&review.id).unwrap_or_default();
    Node {
        replies: mine.into_iter().map(|r| grow(r, children)).collect(),
        review,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::model::ProductId;
    use crate::reviews::ReviewStatus;

    fn review(id: i64, parent: Option<i64>) -> Review {
        Review {
            id: ReviewId(id),
            product_id: ProductId(15),
            parent_id: parent.map(ReviewId),
            depth: 1,
            customer_id: None,
            author_name: format!("Author {id}"),
            author_email: "a@example.test".into(),
            content: "Text".into(),
            rating: None,
            status: ReviewStatus::Approved,
            verified: false,
            is_staff: false,
            created_at: id,
        }
    }

    fn ids(nodes: &[Node]) -> Vec<(i64, Vec<(i64, usize)>)> {
        nodes
            .iter()
            .map(|n| {
                (
                    n.review.id.0,
                    n.replies
                        .iter()
                        .map(|r| (r.review.id.0, r.replies.len()))
                        .collect(),
                )
            })
            .collect()
    }

    #[test]
    fn replies_nest_under_what_they_answer_at_any_depth() {
        let tree = nest(
            vec![review(9, None), review(1, None)],
            vec![
                review(2, Some(1)),
                review(3, Some(2)),
                review(4, Some(1)),
                review(10, Some(9)),
            ],
        );
        assert_eq!(
            ids(&tree),
            vec![(9, vec![(10, 0)]), (1, vec![(2, 1), (4, 0)])]
        );
        assert_eq!(tree[1].replies[0].replies[0].review.id, ReviewId(3));
    }

    #[test]
    fn a_reply_whose_parent_is_not_shown_is_left_out() {
        let tree = nest(
            vec![review(1, None)],
            vec![review(5, Some(4)), review(6, Some(5))],
        );
        assert_eq!(ids(&tree), vec![(1, vec![])]);
    }
}
