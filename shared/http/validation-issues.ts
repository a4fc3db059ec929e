import type { z } from 'zod';
import type { ProblemDetail } from '../core/errors.ts';

/**
 * A schema's failure as one `{path, message}` per problem. A request that fits none of a union's
 * shapes (an ad with both or neither of imageId and videoId, say) reports the problems of the one
 * shape it comes closest to, when one does: the shape whose own keys it gets wrong least (an
 * unexpected key, a missing one, a literal of another shape). When no shape is closest, the union's
 * own message says what is asked. zod reports every shape's problems; no library picks one, so this
 * is written here (docs/decisions.md, "The document as the whole truth").
 */
type Issue = z.core.$ZodIssue;

export function problemsOf(issues: readonly Issue[], input: unknown, prefix: PropertyKey[] = []): ProblemDetail[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const closest = closestShape(issue.errors as Issue[][], valueAt(input, issue.path));
      if (closest) return problemsOf(closest, valueAt(input, issue.path), path);
    }
    return [{ path: path.map(String).join('.'), message: issue.message }];
  });
}

const valueAt = (value: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined), value);

/** How badly a shape misses at its own level: keys it does not have, keys it needs and the body lacks, literals of another shape. */
const misfit = (issues: Issue[], value: unknown) =>
  issues.filter((issue) => {
    if (issue.path.length > 1) return false;
    if (issue.code === 'unrecognized_keys' || issue.code === 'invalid_value') return true;
    if (issue.code === 'invalid_type' && issue.expected === 'never') return true; // a key of another shape
    const key = issue.path[0];
    return issue.code === 'invalid_type' && key !== undefined && (value === null || typeof value !== 'object' || !(key in value));
  }).length;

function closestShape(shapes: Issue[][], value: unknown): Issue[] | undefined {
  const scores = shapes.map((issues) => misfit(issues, value));
  const best = Math.min(...scores);
  return scores.filter((score) => score === best).length === 1 ? shapes[scores.indexOf(best)] : undefined;
}
