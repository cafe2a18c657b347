// The one warning `react-router build` prints that nothing in this project causes or can change.
//
// @react-router/dev 7.18.4, the newest 7.x (the family is pinned, shared/docs/toolchain.md),
// creates its internal Vite servers (config loader, child compiler) with `envFile: false`, which
// Vite 8.1 and later report as deprecated, three times per build. React Router 8 switched to
// `envDir: false` (remix-run/react-router#15230); no 7.x release has it. Until the project moves
// to React Router 8, exactly that line (and Vite's "(x2)" repeats of it) is dropped; every other
// warning passes through. build-notices.test.ts fails once Vite no longer prints it, so the
// filter goes away with its cause.
import { stripVTControlCharacters } from "node:util";

export const envFileNotice =
  "The `envFile` option is deprecated, please use `envDir: false` instead.";

/** Whether console.warn's arguments are the known notice (coloured or not, repeated or not). */
export function isKnownNotice(args: readonly unknown[]): boolean {
  const [first] = args;
  return typeof first === "string" && stripVTControlCharacters(first).trim() === envFileNotice;
}

/** Vite's logger writes its warnings with console.warn: this one is left out from now on. */
export function dropKnownNotices(): void {
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    if (!isKnownNotice(args)) warn(...args);
  };
}
