/**
 * A full page load of `path`: the session overlays leave for routes (logout, login) whose loaders
 * must see the browser's cookies as they are now. Its own module so that tests can replace it.
 */
export function leavePage(path: string): void {
  window.location.assign(path);
}

/**
 * A full page POST of the portal's sign-out form to `path` (a GET of /logout only asks first,
 * routes/logout-sign-out): the browser marks it same-origin, so the sign-out goes ahead.
 */
export function postSignOut(path: string): void {
  const form = document.createElement("form");
  form.method = "post";
  form.action = path;
  document.body.append(form);
  form.submit();
}
