import type { MessageKey } from "../../i18n/translator.ts";

/** Scopes the consent screen words for people; any other scope is shown by its name. */
const knownScopes: Readonly<Record<string, MessageKey>> = {
  openid: "consent.scope.openid",
  offline_access: "consent.scope.offline_access",
  offline: "consent.scope.offline_access",
  email: "consent.scope.email",
  profile: "consent.scope.profile",
  phone: "consent.scope.phone",
};

export function scopeText(
  scope: string,
  t: (key: MessageKey, params?: Readonly<Record<string, unknown>>) => string,
): string {
  const key = Object.hasOwn(knownScopes, scope) ? knownScopes[scope] : undefined;
  return key ? t(key) : t("consent.scope.other", { scope });
}
