import { redirect } from "react-router";
import type { Route } from "./+types/theme";
import { getConfig } from "../config.server.ts";
import { isCrossSitePost } from "../http/cross-site-post.server.ts";
import { isTheme, themeCookie } from "../theme/theme.ts";

/** The theme toggle without JavaScript: remember the choice, then go back where the user was. */
export async function action({ request }: Route.ActionArgs) {
  // A resource route: React Router's own same-origin check for actions does not run here.
  if (isCrossSitePost(request, getConfig().publicUrl)) {
    return new Response("Cross-site form posts are refused.", {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const form = await request.formData();
  const theme = form.get("theme");
  const back = localPath(form.get("return_to"));
  if (!isTheme(theme)) return redirect(back);
  const config = getConfig();
  const secure = config.publicUrl.startsWith("https:");
  return redirect(back, {
    headers: { "Set-Cookie": themeCookie(theme, config.cookieDomain, secure) },
  });
}

export function loader() {
  return redirect("/");
}

/**
 * Only paths on this site, so the form cannot be used to bounce users elsewhere. Browsers drop
 * tabs and newlines from URLs and read `\` as `/`, so `/<tab>/evil.example` is `//evil.example` to
 * them: the value is parsed the way a browser would and must stay on a placeholder origin.
 */
export function localPath(value: FormDataEntryValue | null): string {
  if (typeof value !== "string" || !value.startsWith("/")) return "/";
  if (value.includes("\\") || [...value].some((c) => c.charCodeAt(0) < 0x20 || c === "\u007f"))
    return "/";
  const here = "http://portal.invalid";
  let target: URL;
  try {
    target = new URL(value, here);
  } catch {
    return "/";
  }
  if (
    target.origin !== here ||
    !target.pathname.startsWith("/") ||
    target.pathname.startsWith("//")
  )
    return "/";
  return `${target.pathname}${target.search}${target.hash}`;
}
