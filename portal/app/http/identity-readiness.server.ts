/**
 * Whether the identity service is up, asked of its `/health/ready` (Kratos serves it on the
 * public API as on the admin one; so does the embedded server). Only asked after a page failed
 * (page-handler.server.ts), so a healthy portal never pays for it.
 *
 * "Down" is no answer at all (refused, reset, timed out) or a 502/503/504: the service is
 * starting, stopping or its database is away. Any other answer, 404 included (a deployment that
 * does not expose the health route), means the service is there and the failure is the page's.
 */
export interface IdentityReadiness {
  isUp(): Promise<boolean>;
}

interface ReadinessOptions {
  /** The identity service's public URL, as the portal's server reaches it. */
  identityUrl: string;
  /** How long one check may take before the service counts as down. */
  timeoutMs?: number;
}

const unavailable = new Set([502, 503, 504]);

export function createIdentityReadiness({
  identityUrl,
  timeoutMs = 2_000,
}: ReadinessOptions): IdentityReadiness {
  const url = `${identityUrl.replace(/\/+$/, "")}/health/ready`;
  let pending: Promise<boolean> | undefined;

  async function check(): Promise<boolean> {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      await response.body?.cancel();
      return !unavailable.has(response.status);
    } catch {
      return false;
    }
  }

  return {
    // Failures arriving together share one check; no result outlives it, so the first failure
    // after the service went away (or came back) sees it as it is. A check costs what the failed
    // page's own call to the service cost.
    isUp() {
      pending ??= check().finally(() => {
        pending = undefined;
      });
      return pending;
    },
  };
}
