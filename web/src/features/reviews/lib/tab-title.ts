/** The reviews tab's title: "Reviews (3)". */
export function reviewsTabTitle(count: number): string {
  return `Reviews (${count})`;
}
