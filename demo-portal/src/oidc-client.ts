import * as oidc from "openid-client";
import type { DemoConfig } from "./config.ts";

export interface OidcClient {
  /**
   * The issuer's discovered configuration. Discovery runs on first use, not at start-up, because
   * `npm start` may bring the OAuth2 service up after this app; a failure is not remembered, so
   * the next sign-in asks again.
   */
  configuration(): Promise<oidc.Configuration>;
}

const attempts = 3;
const retryDelayMs = 250;

export function createOidcClient(config: DemoConfig["oidc"]): OidcClient {
  let discovered: Promise<oidc.Configuration> | undefined;

  async function discover(): Promise<oidc.Configuration> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await oidc.discovery(
          new URL(config.issuer),
          config.clientId,
          undefined,
          oidc.ClientSecretBasic(config.clientSecret),
          {
            // Config only lets plain http through for loopback issuers (local development).
            execute: config.allowInsecureRequests ? [oidc.allowInsecureRequests] : [],
            timeout: 5,
          },
        );
      } catch (error) {
        if (attempt >= attempts) throw error;
        // A short pause rides over the moment the OAuth2 service is still binding its port.
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs * attempt));
      }
    }
  }

  return {
    configuration() {
      discovered ??= discover().catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
      return discovered;
    },
  };
}
