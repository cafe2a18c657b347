/** Spec §3 "Browser storage": a remember-me flag and the saved identifier in localStorage. */
const flagKey = "rememberMe";
const identifierKey = "username";

export interface RememberedLogin {
  identifier: string | undefined;
}

export function readRemembered(storage: Storage | undefined): RememberedLogin | undefined {
  try {
    if (storage?.getItem(flagKey) !== "true") return undefined;
    return { identifier: storage.getItem(identifierKey) ?? undefined };
  } catch {
    return undefined; // storage can be switched off; remembering is only a convenience
  }
}

export function writeRemembered(
  storage: Storage | undefined,
  remember: boolean,
  identifier: string,
): void {
  try {
    if (remember) {
      storage?.setItem(flagKey, "true");
      storage?.setItem(identifierKey, identifier);
    } else {
      storage?.removeItem(flagKey);
      storage?.removeItem(identifierKey);
    }
  } catch {
    // ignored for the same reason as above
  }
}

export function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
