import { ResponseError } from "@ory/client-fetch";
import type { ApiResponse } from "@ory/client-fetch";

/**
 * What one call to the identity service answered, success or not. Kratos uses non-2xx statuses
 * for ordinary outcomes (400 = "render this flow", 410 = "use this other flow", 422 = "send the
 * browser elsewhere"), so callers need the status, the body and the cookies in every case.
 */
export type IdentityResponse<T> =
  | { ok: true; status: number; data: T; setCookies: string[] }
  | { ok: false; status: number; body: unknown; setCookies: string[] };

export async function readIdentityResponse<T>(
  call: () => Promise<ApiResponse<T>>,
): Promise<IdentityResponse<T>> {
  try {
    const response = await call();
    return {
      ok: true,
      status: response.raw.status,
      data: await response.value(),
      setCookies: response.raw.headers.getSetCookie(),
    };
  } catch (error) {
    if (!(error instanceof ResponseError)) throw error;
    const raw = error.response;
    return {
      ok: false,
      status: raw.status,
      body: await readBody(raw),
      setCookies: raw.headers.getSetCookie(),
    };
  }
}

/** Status, raw JSON body and cookies of a call, whatever the status: for classifying answers. */
export interface IdentityAnswer {
  status: number;
  body: unknown;
  setCookies: string[];
  /**
   * The Location of a redirect. Kratos answers some JSON submissions with 303 to the flow that
   * replaces the submitted one (recovery retries and expiry), and redirects are never followed.
   */
  location?: string;
}

export async function readIdentityAnswer<T>(
  call: () => Promise<ApiResponse<T>>,
): Promise<IdentityAnswer> {
  let raw: Response;
  try {
    raw = (await call()).raw;
  } catch (error) {
    if (!(error instanceof ResponseError)) throw error;
    raw = error.response;
  }
  const answer: IdentityAnswer = {
    status: raw.status,
    body: await readBody(raw),
    setCookies: raw.headers.getSetCookie(),
  };
  const location = raw.headers.get("location");
  if (location) answer.location = location;
  return answer;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
