// A category with its ancestors, root first: the middle of a breadcrumb trail.
import type { Taxonomy } from '@/types/store-api';

const MAX_DEPTH = 10;

export function categoryTrail(categoryId: number, all: readonly Taxonomy[]): Taxonomy[] {
  const trail: Taxonomy[] = [];
  let current = all.find((candidate) => candidate.id === categoryId);
  // The depth bound guards against a parent loop in bad data.
  while (current && trail.length < MAX_DEPTH) {
    trail.unshift(current);
    const parentId = current.parent;
    current = parentId ? all.find((candidate) => candidate.id === parentId) : undefined;
  }
  return trail;
}
