import { vi } from "vitest";

export interface RecordedCall {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export type Answer = { status: number; body?: unknown; setCookies?: string[]; location?: string };

/**
 * Replaces fetch — the identity client's only way out — with scripted answers, and records
 * what the portal sent. Answers are matched by "METHOD /path" in order of registration.
 */
export function stubIdentity(routes: Record<string, Answer | ((call: RecordedCall) => Answer)>) {
  const calls: RecordedCall[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? "GET";
    const text = typeof init?.body === "string" ? init.body : undefined;
    const call: RecordedCall = {
      method,
      url,
      headers: new Headers(init?.headers),
      body: text === undefined ? undefined : (JSON.parse(text) as unknown),
    };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    if (route === undefined) throw new Error(`unexpected identity call ${method} ${url.href}`);
    const answer = typeof route === "function" ? route(call) : route;
    const headers = new Headers({ "content-type": "application/json" });
    for (const cookie of answer.setCookies ?? []) headers.append("set-cookie", cookie);
    if (answer.location !== undefined) headers.set("location", answer.location);
    const body = answer.body === undefined ? null : JSON.stringify(answer.body);
    return Promise.resolve(new Response(body, { status: answer.status, headers }));
  });
  vi.stubGlobal("fetch", fetchStub);
  return { calls };
}
