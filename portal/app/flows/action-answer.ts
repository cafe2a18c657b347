/** The type of `key` in the members of `A` that have it (optional ones bring their undefined). */
type ValueAt<A, K extends PropertyKey> = A extends unknown
  ? K extends keyof A
    ? A[K]
    : never
  : never;

/**
 * A flow page shows its action's answer over its loader's: `key` of the action's data when the
 * action answered with it, else `otherwise` (the loader's, or empty). An action answers in several
 * shapes (a flow, a notice alone, a rate limit …), so each field is looked up on its own.
 */
export function answerOr<A extends object, K extends PropertyKey, O>(
  actionData: A | undefined,
  key: K,
  otherwise: O,
): ValueAt<A, K> | O {
  return actionData && key in actionData
    ? (actionData as Record<K, ValueAt<A, K>>)[key]
    : otherwise;
}
