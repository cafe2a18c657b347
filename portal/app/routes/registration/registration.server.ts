import { RegistrationFlowFromJSON } from "@portal/client";
import type { UpdateRegistrationFlowBody } from "@portal/client";
import { data, redirect } from "react-router";
import { flowReturnTo } from "../../flows/flow-return-to.server.ts";
import { sessionChecked } from "../../flows/flow-args.server.ts";
import type { FlowArgs, FlowPageRoute } from "../../flows/flow-args.server.ts";
import { submitFlow } from "../../flows/submit-flow.server.ts";
import { loadFlowPage } from "../../flows/load-flow-page.server.ts";
import { isRecord } from "../../flows/node-guards.ts";
import { formToJson, stringField } from "../../flows/submission.ts";
import { setCookieHeaders } from "../../http/cookies.server.ts";
import { identityFor } from "../../http/identity.server.ts";
import { redirectWithCookies } from "../../http/redirects.server.ts";
import { hasNodna, nodnaParam } from "../nodna.ts";
import { fieldNames, readRegistrationInput, validateRegistration } from "./validation.ts";

const registrationRoute: FlowPageRoute = {
  page: "registration",
  keep: ["return_to", "login_challenge"],
  rules: sessionChecked,
};

/** The confirm fields are the portal's own; the identity service never sees them. */
const portalFields = [fieldNames.confirmEmail, fieldNames.confirmPassword];

export async function loadRegistration(args: FlowArgs) {
  const { frontend } = identityFor(args.request, args.context, args.locale);
  const query = args.url.searchParams;
  const page = await loadFlowPage(args, frontend, registrationRoute, {
    carry: (params): Record<string, string> => (hasNodna(params) ? { [nodnaParam]: "1" } : {}),
  });
  if (page instanceof Response) return page;
  return data(
    {
      flow: RegistrationFlowFromJSON(page.flow),
      nodna: hasNodna(query),
      notice: page.notice,
    },
    { headers: setCookieHeaders(page.setCookies) },
  );
}

export async function submitRegistration(args: FlowArgs) {
  const flowId = args.url.searchParams.get("flow");
  if (!flowId) return redirect(`/${args.locale}/registration`);
  const form = await args.request.formData();
  const input = readRegistrationInput((name) => form.get(name));
  // What the user typed comes back with the page, so nothing is lost; passwords never do.
  const values = {
    [fieldNames.email]: input.email.trim().toLowerCase(),
    [fieldNames.confirmEmail]: input.confirmEmail.trim().toLowerCase(),
  };

  const method = form.get("method");
  const fieldErrors = validateRegistration(input, method);
  if (Object.keys(fieldErrors).length > 0) {
    return data({ fieldErrors, values }, { status: 400 });
  }

  // What was checked is what is sent: a form may repeat a field (form.get reads the first value,
  // formToJson keeps the last), and a second `password` skipped the composition rule.
  const body = toRegistrationBody(formToJson(form, portalFields), {
    email: values[fieldNames.email],
    password: input.password,
  });
  if (!body) return data({ notice: "notice.somethingWentWrong" as const, values }, { status: 400 });

  const { frontend } = identityFor(args.request, args.context, args.locale);
  return submitFlow({
    args,
    route: registrationRoute,
    send: () =>
      frontend.updateRegistrationFlowRaw({ flow: flowId, updateRegistrationFlowBody: body }),
    render: (flow) => ({ flow: RegistrationFlowFromJSON(flow), values }),
    success: async (setCookies) => {
      const returnTo = await flowReturnTo(() => frontend.getRegistrationFlowRaw({ id: flowId }));
      return redirectWithCookies(returnTo ?? `/${args.locale}`, setCookies, {
        document: returnTo !== undefined,
      });
    },
    kept: { values },
  });
}

/**
 * The password or passkey method's body in the SDK's shape: traits nested, the e-mail trimmed
 * and lowercased as the user saw it, the password the portal checked (or the passkey's
 * attestation), and nothing of the portal's own fields.
 */
function toRegistrationBody(
  fields: Record<string, unknown>,
  checked: { email: string; password: string },
): UpdateRegistrationFlowBody | undefined {
  const { email, password } = checked;
  const method = stringField(fields, "method");
  const traits = isRecord(fields.traits) ? { ...fields.traits, email } : { email };
  if (method === "passkey") {
    // The browser's attestation, which the portal's WebAuthn module put into the form.
    return {
      method,
      traits,
      passkey_register: stringField(fields, "passkey_register"),
      csrf_token: stringField(fields, "csrf_token"),
    };
  }
  if (method !== "password") return undefined;
  return {
    method: "password",
    password,
    traits,
    csrf_token: stringField(fields, "csrf_token"),
  };
}
