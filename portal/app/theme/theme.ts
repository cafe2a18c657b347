export type Theme = "light" | "dark";

export const defaultTheme: Theme = "light";
export const themeCookieName = "theme";
const themeCookieMaxAgeSeconds = 86_400;

export function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark";
}

export function otherTheme(theme: Theme): Theme {
  return theme === "dark" ? "light" : "dark";
}

/**
 * One cookie format for both writers: the /theme action (no JavaScript) and the toggle's
 * `document.cookie` (with JavaScript). Not HttpOnly, because the script writes it.
 */
export function themeCookie(theme: Theme, domain: string | undefined, secure: boolean): string {
  const parts = [
    `${themeCookieName}=${theme}`,
    `Max-Age=${themeCookieMaxAgeSeconds}`,
    "Path=/",
    "SameSite=Lax",
  ];
  if (domain) parts.push(`Domain=${domain}`);
  if (secure) parts.push("Secure");
  return parts.join("; ");
}
