import type { Page } from "@playwright/test";

export type VirtualAuthenticator = {
  /** How many credentials the authenticator holds (registered by the page). */
  credentialCount: () => Promise<number>;
  /**
   * Whether the authenticator answers by itself, as a person touching it would. Off, a pending
   * request waits: the sign-in page's passkey autofill (conditional mediation), which the
   * authenticator would otherwise answer at once, stays open like an unopened autofill list.
   */
  answersByItself: (enabled: boolean) => Promise<void>;
};

/**
 * A Chromium virtual authenticator for one page (DevTools protocol, `WebAuthn` domain): an
 * internal (platform) authenticator with resident keys and user verification, which answers
 * every ceremony at once as if the person touched it. It stays with the page across
 * navigations, so a journey through the agency product and the portal keeps its keys.
 */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      ctap2Version: "ctap2_1",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentialCount: async () =>
      (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials.length,
    answersByItself: async (enabled) => {
      await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled });
    },
  };
}
