// A browser stand-in for the public listener: it keeps cookies per name and path (oidc-provider
// scopes its resume cookie to /oauth2/auth/<uid>), never follows redirects by itself, and only
// ever talks to the one origin it was made for.

interface StoredCookie {
  name: string;
  path: string;
  value: string;
}

export interface BrowserResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The Location header resolved against the request URL. */
  location: string | undefined;
}

/** RFC 6265 path matching. */
function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (cookiePath === requestPath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

export class Browser {
  readonly origin: string;
  #cookies: StoredCookie[] = [];

  constructor(origin: string) {
    this.origin = new URL(origin).origin;
  }

  /** The cookies this browser would send to `url`. */
  cookieHeader(url: URL): string {
    return this.#cookies
      .filter((cookie) => pathMatches(cookie.path, url.pathname))
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join("; ");
  }

  cookieNames(): string[] {
    return this.#cookies.map((cookie) => cookie.name);
  }

  #store(response: Response, url: URL): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = url.pathname.replace(/\/[^/]*$/, "") || "/";
      let expired = value === "";
      for (const attribute of attributes) {
        const [key = "", attrValue = ""] = attribute.split("=");
        if (key.toLowerCase() === "path") path = attrValue || "/";
        if (key.toLowerCase() === "max-age" && Number(attrValue) <= 0) expired = true;
        if (key.toLowerCase() === "expires" && Date.parse(attrValue) < Date.now()) expired = true;
      }
      this.#cookies = this.#cookies.filter((c) => !(c.name === name && c.path === path));
      if (!expired) this.#cookies.push({ name, path, value });
    }
  }

  async request(url: string, init: RequestInit = {}): Promise<BrowserResponse> {
    const target = new URL(url);
    if (target.origin !== this.origin)
      throw new Error(`this browser only visits ${this.origin}, not ${url}`);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(target);
    if (cookie) headers.set("cookie", cookie);
    const response = await fetch(target, { ...init, headers, redirect: "manual" });
    this.#store(response, target);
    const location = response.headers.get("location");
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: location ? new URL(location, target).href : undefined,
    };
  }

  get(url: string): Promise<BrowserResponse> {
    return this.request(url);
  }

  /** Follows redirects while they stay on this browser's origin; returns the first one leaving it. */
  async follow(url: string): Promise<BrowserResponse & { url: string }> {
    let current = url;
    for (let hops = 0; hops < 10; hops++) {
      const response = await this.get(current);
      if (!response.location || new URL(response.location).origin !== this.origin) {
        return { ...response, url: current };
      }
      current = response.location;
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** Submits the first form of an HTML page (hidden inputs only), as a browser with JS would. */
  async submitForm(page: BrowserResponse): Promise<BrowserResponse> {
    const action = /<form[^>]*action="([^"]+)"/.exec(page.text)?.[1];
    if (!action) throw new Error(`no form in page: ${page.text.slice(0, 300)}`);
    const fields = new URLSearchParams();
    for (const match of page.text.matchAll(
      /<input type="hidden" name="([^"]+)" value="([^"]*)"/g,
    )) {
      fields.set(decodeHtml(match[1] ?? ""), decodeHtml(match[2] ?? ""));
    }
    return this.request(decodeHtml(action), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: fields.toString(),
    });
  }
}

function decodeHtml(value: string): string {
  return value
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}
