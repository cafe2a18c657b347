/**
 * A full page load of `path`: the session overlays leave for routes (logout, login) whose loaders
 * must see the browser's cookies as they are now. Its own module so that tests can replace it.
 */
export function leavePage(path: string): void {
  window.location.assign(path);
}
