// The product page's reviews tab, from the reviews feature, in a chunk of its own: the
// server renders it with the page (the server bundle hands it over with
// `provideReviews`), and the browser fetches its code while the rest of the page is
// taken over, keeping the server's HTML in place until it arrives. The form it shows
// is the original's, posted to /wp-comments-post.php, so it works before that too.
import { Suspense, type ComponentType } from 'react';
import type { ProductReviews } from '@/features/reviews/components/product-reviews';

type Reviews = typeof ProductReviews;
type Props = Parameters<Reviews>[0];

let reviews: Reviews | null = null;
let loading: Promise<void> | null = null;

export function provideReviews(component: Reviews) {
  reviews = component;
}

function load(): Promise<void> {
  loading ??= import('@/features/reviews/components/product-reviews').then(
    (module) => provideReviews(module.ProductReviews),
    (error: unknown) => {
      // Let a later render try again (a flaky network), and say so meanwhile.
      loading = null;
      throw error;
    },
  );
  return loading;
}

function Loaded(props: Props) {
  if (!reviews) throw load();
  const Component = reviews as ComponentType<Props>;
  return <Component {...props} />;
}

export function ReviewsSlot(props: Props) {
  return (
    <Suspense fallback={<p aria-busy="true">Loading reviews…</p>}>
      <Loaded {...props} />
    </Suspense>
  );
}
