import { redirect } from "react-router";
import type { Route } from "./+types/theme";
import { getConfig } from "../config.server.ts";
import { isTheme, themeCookie } from "../theme/theme.ts";

/** The theme toggle without JavaScript: remember the choice, then go back where the user was. */
export async function action({ request }: Route.ActionArgs) {
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

/** Only paths on this site, so the form cannot be used to bounce users elsewhere. */
export function localPath(value: FormDataEntryValue | null): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return "/";
  if (value.includes("\\")) return "/";
  return value;
}
