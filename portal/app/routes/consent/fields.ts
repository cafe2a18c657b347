/** Names of the consent form's fields, shared by the page and its action. */
export const challengeParam = "consent_challenge";
export const rememberName = "remember";
export const decisionName = "decision";
