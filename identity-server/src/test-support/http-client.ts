import { assertMatchesSpec } from "./openapi.ts";

/** A minimal cookie jar: name → value, fed from Set-Cookie, sent back on every request. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  header(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** The value of the first cookie whose name starts with the prefix (e.g. `csrf_token_`). */
  find(prefix: string): { name: string; value: string } | undefined {
    for (const [name, value] of this.cookies) if (name.startsWith(prefix)) return { name, value };
    return undefined;
  }
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/**
 * `fetch` that never follows redirects, keeps cookies in `jar` (if given) and checks every JSON body
 * against the Kratos OpenAPI spec for the called operation and status.
 */
export function specCheckedFetch(jar?: CookieJar): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    const cookie = jar?.header();
    if (cookie && !headers.has("cookie")) headers.set("cookie", cookie);
    const response = await fetch(request, { headers, redirect: "manual" });
    jar?.store(response);
    const text = await response.clone().text();
    const url = new URL(request.url);
    const contentType = response.headers.get("content-type") ?? "";
    const isJson = contentType.includes("application/json");
    // The one script Kratos serves (webauthn.js) is a string in the spec.
    const isScript = contentType.includes("javascript");
    const body =
      text === ""
        ? undefined
        : isJson
          ? (JSON.parse(text) as unknown)
          : isScript
            ? text
            : undefined;
    if (response.status < 300 || response.status >= 400) {
      assertMatchesSpec(request.method, url.pathname, response.status, body);
    }
    return response;
  };
}

/** One call through `specCheckedFetch`, with the body already read and parsed. */
export async function call(
  url: string,
  init: RequestInit & { jar?: CookieJar } = {},
): Promise<TestResponse> {
  const { jar, ...rest } = init;
  const response = await specCheckedFetch(jar)(url, rest);
  const text = await response.text();
  let body: unknown;
  try {
    body = text === "" ? undefined : (JSON.parse(text) as unknown);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}
