import { RecoveryFlowFromJSON } from "@portal/client";
import type { UpdateRecoveryFlowBody } from "@portal/client";
import { data, redirect } from "react-router";
import { sessionChecked } from "../../flows/flow-args.server.ts";
import type { FlowArgs, FlowPageRoute } from "../../flows/flow-args.server.ts";
import { submitFlow } from "../../flows/submit-flow.server.ts";
import { loadFlowPage } from "../../flows/load-flow-page.server.ts";
import { formToJson, stringField } from "../../flows/submission.ts";
import { setCookieHeaders } from "../../http/cookies.server.ts";
import { identityFor } from "../../http/identity.server.ts";
import { redirectWithCookies } from "../../http/redirects.server.ts";
import { validateRecovery } from "./recovery-validation.ts";

const recoveryRoute: FlowPageRoute = {
  page: "recovery",
  keep: ["return_to"],
  rules: sessionChecked,
};

export async function loadRecovery(args: FlowArgs) {
  const { frontend } = identityFor(args.request, args.context, args.locale);
  // Created here with the page's locale as Accept-Language: the code e-mail uses that language.
  const page = await loadFlowPage(args, frontend, recoveryRoute);
  if (page instanceof Response) return page;
  return data(
    { flow: RecoveryFlowFromJSON(page.flow), notice: page.notice },
    { headers: setCookieHeaders(page.setCookies) },
  );
}

export async function submitRecovery(args: FlowArgs) {
  const flowId = args.url.searchParams.get("flow");
  if (!flowId) return redirect(`/${args.locale}/recovery`);
  const form = await args.request.formData();
  const fields = formToJson(form);
  const checked = validateRecovery({
    email: stringField(fields, "email"),
    code: stringField(fields, "code"),
  });
  if (checked.kind === "invalid") {
    return data({ fieldErrors: checked.errors, values: checked.values }, { status: 400 });
  }

  const body: UpdateRecoveryFlowBody =
    checked.kind === "send"
      ? { method: "code", email: checked.email, csrf_token: stringField(fields, "csrf_token") }
      : { method: "code", code: checked.code, csrf_token: stringField(fields, "csrf_token") };
  const { frontend } = identityFor(args.request, args.context, args.locale);
  // Success is 200 with continue_with show_settings_ui and the new session's cookie; a spent
  // flow is a 303 to its replacement. Both arrive here as redirects that carry every cookie.
  return submitFlow({
    args,
    route: recoveryRoute,
    send: () => frontend.updateRecoveryFlowRaw({ flow: flowId, updateRecoveryFlowBody: body }),
    render: (flow) => ({ flow: RecoveryFlowFromJSON(flow), values: checked.values }),
    success: (setCookies) => redirectWithCookies(`/${args.locale}`, setCookies),
    kept: { values: checked.values },
  });
}
