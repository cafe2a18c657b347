import type { StoredLookupCode } from "./lookup-codes.ts";
import { uiText, type UiText } from "../../text/messages.ts";
import { inputNode, textNode, type UiNode } from "../../ui/nodes.ts";

// The lookup_secret nodes, as Kratos' strategy/lookup/nodes.go and login.go build them.

/** Every node id the lookup settings group may show (Kratos' allSettingsNodes). */
export const lookupSettingsNodeIds = [
  "lookup_secret_regenerate",
  "lookup_secret_reveal",
  "lookup_secret_disable",
  "lookup_secret_codes",
  "lookup_secret_confirm",
];

function lookupSubmit(name: string, labelId: number): UiNode {
  return inputNode({
    name,
    type: "submit",
    group: "lookup_secret",
    value: "true",
    label: uiText(labelId),
  });
}

export const revealLookupNode = () => lookupSubmit("lookup_secret_reveal", 1050007);
export const regenerateLookupNode = () => lookupSubmit("lookup_secret_regenerate", 1050008);
export const disableLookupNode = () => lookupSubmit("lookup_secret_disable", 1050016);
export const confirmLookupNode = () => lookupSubmit("lookup_secret_confirm", 1050011);

/** Go's time.Time String() of a UTC time rounded to seconds: "2021-08-17 11:32:39 +0000 UTC". */
function goTimeString(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace("T", " ")} +0000 UTC`;
}

/** RFC 3339 without fractional seconds when there are none, as Go encodes time.Time. */
function rfc3339(at: Date): string {
  return at.toISOString().replace(".000Z", "Z");
}

/** One code of the list: the code itself (1050009) or when it was used (1050014). */
export type ListedLookupCode = { code: string } | { usedAt: Date };

/** Stored codes as the list shows them: their plain text is gone, so unused ones are masked. */
export function listStoredCodes(codes: readonly StoredLookupCode[]): ListedLookupCode[] {
  return codes.map((c) => (c.used_at ? { usedAt: new Date(c.used_at) } : { code: "********" }));
}

/**
 * The `lookup_secret_codes` text node: 1050015 whose text lists the codes ("used" for used ones)
 * and whose context.secrets holds one message per code; labelled 1050010.
 */
export function lookupCodesNode(codes: readonly ListedLookupCode[]): UiNode {
  const secrets: UiText[] = codes.map((c) =>
    "code" in c
      ? uiText(1050009, { secret: c.code })
      : uiText(
          1050014,
          { used_at: goTimeString(c.usedAt) },
          { used_at: rfc3339(c.usedAt), used_at_unix: Math.floor(c.usedAt.getTime() / 1000) },
        ),
  );
  const list = codes.map((c) => ("code" in c ? c.code : "used")).join(", ");
  return textNode(
    "lookup_secret_codes",
    uiText(1050015, { secrets_list: list }, { secrets }),
    "lookup_secret",
    uiText(1050010),
  );
}

/** Second-factor login: the backup code ("Backup recovery code", 1010007), empty. */
export function lookupLoginCodeNode(): UiNode {
  return inputNode({
    name: "lookup_secret",
    type: "text",
    group: "lookup_secret",
    value: "",
    required: true,
    label: uiText(1010007),
  });
}

/** Second-factor login: `method=lookup_secret` "Use backup recovery code" (1010010). */
export function lookupLoginSubmitNode(): UiNode {
  return inputNode({
    name: "method",
    type: "submit",
    group: "lookup_secret",
    value: "lookup_secret",
    label: uiText(1010010),
  });
}
