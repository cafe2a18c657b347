import { VerificationFlowFromJSON, readIdentityResponse } from "@portal/client";
import type { IdentityResponse, Session, UpdateVerificationFlowBody, UiNode } from "@portal/client";
import { data, redirect } from "react-router";
import type { FlowArgs, FlowPageRoute } from "../../flows/flow-args.server.ts";
import { submitFlow } from "../../flows/submit-flow.server.ts";
import { loadFlowPage } from "../../flows/load-flow-page.server.ts";
import { isAnchorAttributes } from "../../flows/node-guards.ts";
import { formToJson, stringField } from "../../flows/submission.ts";
import { setCookieHeaders } from "../../http/cookies.server.ts";
import { identityFor } from "../../http/identity.server.ts";
import { relativeToPortal } from "../../http/portal-destination.server.ts";
import { redirectWithCookies } from "../../http/redirects.server.ts";
import { toE164 } from "../../ui/phone/phone-number.server.ts";
import { addressField, channelField, checkVerification, isChannel } from "./verification-rules.ts";
import type { Channel, ListedAddress } from "./verification-rules.ts";

const verificationRoute: FlowPageRoute = { page: "verification", keep: ["return_to", "channel"] };

export async function loadVerification(args: FlowArgs) {
  const { frontend } = identityFor(args.request, args.context, args.locale);
  const query = args.url.searchParams;
  // The signed-in user's addresses, read alongside the flow (only when there is one to show).
  let reading: Promise<IdentityResponse<Session>> | undefined;
  const page = await loadFlowPage(args, frontend, verificationRoute, {
    beside: () => {
      reading = readIdentityResponse(() => frontend.toSessionRaw({}));
      // Its failure (e.g. rate-limited) is this loader's once awaited below, unless the flow's
      // own came first, as in a Promise.all of both.
      reading.catch(() => undefined);
    },
  });
  const session = await reading;
  if (page instanceof Response) return page;
  const channel = query.get("channel");
  const flow = VerificationFlowFromJSON(page.flow);
  return data(
    {
      flow,
      notice: page.notice,
      channel: isChannel(channel) ? channel : undefined,
      continueHref: continueHref(flow.ui.nodes),
      signedIn: session?.ok === true,
      addresses: session?.ok ? listedAddresses(session.data) : [],
    },
    { headers: setCookieHeaders([...page.setCookies, ...(session?.setCookies ?? [])]) },
  );
}

export async function submitVerification(args: FlowArgs) {
  const flowId = args.url.searchParams.get("flow");
  if (!flowId) return redirect(`/${args.locale}/verification`);
  const form = await args.request.formData();
  const fields = formToJson(form, [channelField]);
  const posted = form.get(channelField);
  // Resend buttons for a phone post `sms`, as Kratos' own do; everything else posts `email`.
  const sms = stringField(fields, "sms");
  const channel: Channel = sms !== undefined ? "sms" : isChannel(posted) ? posted : "email";
  const checked = checkVerification(
    {
      channel,
      code: stringField(fields, "code"),
      address: sms ?? stringField(fields, addressField),
    },
    toE164,
  );
  const values = { [addressField]: stringField(fields, addressField)?.trim() ?? "" };
  if (checked.kind === "invalid") {
    return data({ fieldErrors: checked.errors, values }, { status: 400 });
  }

  const csrf = stringField(fields, "csrf_token");
  // Kratos takes the address in `email` for both channels (its SDK has no `sms` field).
  const body: UpdateVerificationFlowBody =
    checked.kind === "code"
      ? { method: "code", code: checked.code, csrf_token: csrf }
      : { method: "code", email: checked.address, csrf_token: csrf };
  const { frontend } = identityFor(args.request, args.context, args.locale);
  return submitFlow({
    args,
    route: verificationRoute,
    send: () =>
      frontend.updateVerificationFlowRaw({ flow: flowId, updateVerificationFlowBody: body }),
    render: (shape) => {
      const flow = VerificationFlowFromJSON(shape);
      return { flow, continueHref: continueHref(flow.ui.nodes), values };
    },
    success: (setCookies) => redirectWithCookies(`/${args.locale}`, setCookies),
    kept: { values },
  });
}

/**
 * The link a passed challenge offers (node id "continue"): the flow's return_to or the default
 * return URL. On the portal's own origin it stays relative.
 */
export function continueHref(nodes: readonly UiNode[]): string | undefined {
  for (const node of nodes) {
    const { attributes } = node;
    if (isAnchorAttributes(attributes) && attributes.id === "continue") {
      return relativeToPortal(attributes.href);
    }
  }
  return undefined;
}

function listedAddresses(session: Session): ListedAddress[] {
  return (session.identity?.verifiable_addresses ?? []).map((address) => ({
    value: address.value,
    channel: address.via === "sms" ? "sms" : "email",
    verified: address.verified,
  }));
}
