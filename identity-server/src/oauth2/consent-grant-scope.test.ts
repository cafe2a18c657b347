import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "./test-support/oauth2-test-service.ts";
import {
  acceptLogin,
  redirectUri,
  registerClient,
  relyingParty,
  tokenRequest,
  visitUntilChallenge,
  type RegisteredClient,
} from "./test-support/portal-role.ts";

// Consent answers that grant less than was asked for. Hydra decodes `grant_scope` into a Go
// []string (flow/consent_types.go AcceptOAuth2ConsentRequest, sqlxx.StringSliceJSONFormat), so
// Ory's own consent UI's `[null]` (every scope unticked) is `[""]`: accepted, never a 400.

let service: OAuth2TestService;
let client: RegisteredClient;
let rp: oidc.Configuration;

beforeAll(async () => {
  service = await startOAuth2TestService();
  client = await registerClient(service, {
    redirect_uris: [redirectUri],
    scope: "openid email",
  });
  rp = await relyingParty(service, client);
});

afterAll(() => service.stop());

/** Runs the request to the consent UI and answers it with `body`; returns the admin answer. */
async function answerConsent(subject: string, body: unknown) {
  const browser = service.browser();
  const url = oidc.buildAuthorizationUrl(rp, {
    redirect_uri: redirectUri,
    scope: "openid email",
    state: "state-1",
  });
  const loginChallenge = await visitUntilChallenge(browser, url.href, "login");
  const consentChallenge = await visitUntilChallenge(
    browser,
    await acceptLogin(service, loginChallenge, { subject }),
    "consent",
  );
  const answer = await service.admin(
    "PUT",
    `/admin/oauth2/auth/requests/consent/accept?consent_challenge=${consentChallenge}`,
    { json: body },
  );
  return { answer, browser };
}

describe("accepting consent", () => {
  it("with grant_scope [null] answers 200 with redirect_to, as Hydra", async () => {
    const { answer, browser } = await answerConsent("user-none", {
      grant_scope: [null],
      remember: true,
    });
    expect(answer.status).toBe(200);
    const redirectTo = (answer.body as { redirect_to: string }).redirect_to;
    expect(new URL(redirectTo).searchParams.get("consent_verifier")).toBeTruthy();

    // The consent session records what Go would have decoded.
    const sessions = await service.admin(
      "GET",
      "/admin/oauth2/auth/sessions/consent?subject=user-none",
    );
    expect(sessions.body).toMatchObject([{ grant_scope: [""] }]);

    // oidc-provider issues no code without any granted scope (a difference from Hydra, README):
    // the client learns that access was denied instead of being asked for consent in a loop.
    const back = await browser.follow(redirectTo);
    const callback = new URL(back.location ?? "");
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe("state-1");
  });

  it("with only some of the requested scopes issues a code for those scopes", async () => {
    const { answer, browser } = await answerConsent("user-some", { grant_scope: ["openid"] });
    expect(answer.status).toBe(200);
    const back = await browser.follow((answer.body as { redirect_to: string }).redirect_to);
    const code = new URL(back.location ?? "").searchParams.get("code");
    expect(code).toBeTruthy();
    const tokens = await tokenRequest(
      service,
      { grant_type: "authorization_code", code: code ?? "", redirect_uri: redirectUri },
      { id: client.client_id, secret: client.client_secret ?? "" },
    );
    expect(tokens.status).toBe(200);
    expect(tokens.body.scope).toBe("openid");
    expect(tokens.body.id_token).toBeTruthy();
  });

  it("still refuses a grant_scope that is not a list of strings", async () => {
    const { answer } = await answerConsent("user-bad", { grant_scope: [1] });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: "invalid_request" });
  });
});
