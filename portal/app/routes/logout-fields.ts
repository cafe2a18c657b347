/** Names of the sign-out question's form fields, shared by the page and its action. */
export const logoutChallengeParam = "logout_challenge";
export const logoutDecisionName = "decision";
