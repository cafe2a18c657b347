// A browser stand-in for the OAuth2 service's origin: it keeps that origin's cookies by name and
// path (oidc-provider scopes its resume cookie to /oauth2/auth/<uid>) and follows redirects only
// while they stay there, handing back the first one that leaves (to the portal's UIs or the demo).

interface StoredCookie {
  name: string;
  path: string;
  value: string;
}

function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (cookiePath === requestPath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/";
}

export interface IssuerResponse {
  status: number;
  text: string;
  location: string | undefined;
}

export class IssuerBrowser {
  readonly #origin: string;
  #cookies: StoredCookie[] = [];

  constructor(issuer: string) {
    this.#origin = new URL(issuer).origin;
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

  async request(url: string, init: RequestInit = {}): Promise<IssuerResponse> {
    const target = new URL(url);
    if (target.origin !== this.#origin) throw new Error(`not the issuer's origin: ${url}`);
    const headers = new Headers(init.headers);
    const cookie = this.#cookies
      .filter((c) => pathMatches(c.path, target.pathname))
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
    if (cookie) headers.set("cookie", cookie);
    const response = await fetch(target, { ...init, headers, redirect: "manual" });
    this.#store(response, target);
    const location = response.headers.get("location");
    return {
      status: response.status,
      text: await response.text(),
      location: location ? new URL(location, target).href : undefined,
    };
  }

  async follow(url: string): Promise<IssuerResponse> {
    let current = url;
    for (let hops = 0; hops < 10; hops++) {
      const response = await this.request(current);
      if (!response.location || new URL(response.location).origin !== this.#origin) return response;
      current = response.location;
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** Submits the page's first form with its hidden inputs, as the auto-submit script would. */
  async submitForm(page: IssuerResponse): Promise<IssuerResponse> {
    const action = /<form[^>]*action="([^"]+)"/.exec(page.text)?.[1];
    if (!action) throw new Error(`no form in page: ${page.text.slice(0, 300)}`);
    const fields = new URLSearchParams();
    for (const match of page.text.matchAll(
      /<input type="hidden" name="([^"]+)" value="([^"]*)"/g,
    )) {
      fields.set(decodeHtml(match[1] ?? ""), decodeHtml(match[2] ?? ""));
    }
    return this.request(new URL(decodeHtml(action), this.#origin).href, {
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
