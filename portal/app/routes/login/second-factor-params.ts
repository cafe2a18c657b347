/**
 * Query parameters of the second-factor chooser: links, so that it works without JavaScript.
 * Apart from second-factor-methods.ts so that the login route's own chunk (its
 * shouldRevalidate) needs only these, not the lazily loaded second step.
 */
export const methodParam = "method";
export const fromParam = "from";
