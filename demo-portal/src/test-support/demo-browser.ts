import type { FastifyInstance, LightMyRequestResponse } from "fastify";

/** Keeps the demo's cookies between injected requests, as a browser would. */
export class DemoBrowser {
  readonly cookies = new Map<string, string>();
  readonly #app: FastifyInstance;

  constructor(app: FastifyInstance) {
    this.#app = app;
  }

  #keep(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }[]) {
      const expired =
        cookie.value === "" ||
        (cookie.maxAge !== undefined && cookie.maxAge <= 0) ||
        (cookie.expires !== undefined && cookie.expires.getTime() < Date.now());
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.#keep(await this.#app.inject({ url, cookies: Object.fromEntries(this.cookies) }));
  }

  async post(
    url: string,
    form: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    return this.#keep(
      await this.#app.inject({
        method: "POST",
        url,
        cookies: Object.fromEntries(this.cookies),
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        payload: new URLSearchParams(form).toString(),
      }),
    );
  }
}
