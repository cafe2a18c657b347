import { readIdentityAnswer } from "@portal/client";
import type { IdentityClient } from "@portal/client";
import { redirect } from "react-router";
import { isRecord } from "../../flows/node-guards.ts";
import { forwardedForm } from "../../flows/forwarded-form.ts";
import type { Locale } from "../../i18n/locales.ts";
import {
  confirmCard,
  confirmField,
  requestedAction,
  requestedValue,
  withConfirmation,
} from "./confirmations.ts";
import type { ConfirmAction } from "./confirmations.ts";

/**
 * A destructive settings post without its confirmation goes back to the page in the asking
 * state (303 to `?confirm=<action>`, at the card) instead of reaching the identity service.
 * Undefined when the post may go on: nothing destructive, or confirmed.
 */
export async function askFirst(args: {
  form: FormData;
  flowId: string;
  locale: Locale;
  url: URL;
  frontend: IdentityClient["frontend"];
}): Promise<Response | undefined> {
  // Read as forwarded: "T" or "1" for "true" is what the identity service will act on.
  const fields = forwardedForm(args.form, []);
  const action = requestedAction(fields);
  if (!action || args.form.get(confirmField) === action) return undefined;
  // "Generate" is only destructive when it replaces stored codes (the first ones replace none).
  if (action === "lookup_secret_regenerate" && !(await storedCodesExist(args))) return undefined;
  const value = requestedValue(fields, action);
  return redirect(confirmationUrl(args.locale, args.url.search, action, value), 303);
}

function confirmationUrl(
  locale: Locale,
  search: string,
  action: ConfirmAction,
  value?: string,
): string {
  return `/${locale}/settings${withConfirmation(search, action, value)}#${confirmCard[action]}`;
}

/**
 * Whether the identity has backup codes stored: the flow offers to disable them. When the flow
 * cannot be read the answer is yes, so nothing is replaced unasked.
 */
async function storedCodesExist(args: {
  flowId: string;
  frontend: IdentityClient["frontend"];
}): Promise<boolean> {
  const answer = await readIdentityAnswer(() =>
    args.frontend.getSettingsFlowRaw({ id: args.flowId }),
  );
  if (answer.status !== 200 || !isRecord(answer.body) || !isRecord(answer.body.ui)) return true;
  const nodes: unknown = answer.body.ui.nodes;
  if (!Array.isArray(nodes)) return true;
  return nodes.some(
    (node: unknown) =>
      isRecord(node) &&
      isRecord(node.attributes) &&
      node.attributes.name === "lookup_secret_disable",
  );
}
