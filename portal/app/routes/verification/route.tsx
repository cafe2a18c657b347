import { useRef } from "react";
import type { FormEvent } from "react";
import type { Route } from "./+types/route";
import { FlowForm } from "../../flows/flow-form.tsx";
import { FlowMessages } from "../../flows/flow-messages.tsx";
import { lowercaseInPlace } from "../../flows/lowercase-input.ts";
import { fromUiText, translateMessage } from "../../flows/messages.ts";
import { findInput } from "../../flows/node-filters.ts";
import { isAnchorAttributes, isInputNode } from "../../flows/node-guards.ts";
import type { FieldState, NodeRenderOptions } from "../../flows/node-render-options.ts";
import { focusFirstInvalid, messagesFor, useLiveErrors } from "../../flows/use-live-errors.ts";
import type { FieldErrors } from "../../flows/use-live-errors.ts";
import { localeOf } from "../../i18n/locales.ts";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { primaryButton } from "../../ui/buttons.ts";
import { Card } from "../../ui/card.tsx";
import { GoBackLink } from "../../ui/go-back-link.tsx";
import { Notice } from "../../ui/notice.tsx";
import { PhoneNodeField } from "../../ui/phone/phone-node-field.tsx";
import { noticeDuration } from "../notice-query.ts";
import { messages as registrationMessages } from "../registration/validation.ts";
import { isValidEmail } from "../registration/validation.ts";
import { AddressList } from "./address-list.tsx";
import { ChannelToggle } from "./channel-toggle.tsx";
import { ResendForm } from "./resend-form.tsx";
import { loadVerification, submitVerification } from "./verification.server.ts";
import { resendNode, sentChannel, verificationFormNodes } from "./verification-nodes.ts";
import { addressField, checkVerification, verificationMessages } from "./verification-rules.ts";

export function loader({ request, context, params, url }: Route.LoaderArgs) {
  return loadVerification({ request, context, locale: localeOf(params), url });
}

export function action({ request, context, params, url }: Route.ActionArgs) {
  return submitVerification({ request, context, locale: localeOf(params), url });
}

const fieldOrder = ["code", addressField];

export default function Verification({ loaderData, actionData }: Route.ComponentProps) {
  const translator = useTranslator();
  const { t, locale } = translator;
  const formRef = useRef<HTMLFormElement>(null);
  /** Whether the phone picker holds a valid number; undefined until it has reported. */
  const phoneValid = useRef<boolean | undefined>(undefined);
  const fromAction = actionData && "flow" in actionData ? actionData : undefined;
  const flow = fromAction?.flow ?? loaderData.flow;
  const continueHref = fromAction ? fromAction.continueHref : loaderData.continueHref;
  const notice = actionData && "notice" in actionData ? actionData.notice : loaderData.notice;
  const serverErrors: FieldErrors =
    actionData && "fieldErrors" in actionData ? actionData.fieldErrors : {};
  const values: Partial<Record<string, string>> =
    actionData && "values" in actionData ? actionData.values : {};
  const live = useLiveErrors(actionData);

  const passed = flow.state === "passed_challenge";
  const sent = sentChannel(flow);
  // Spec §4: after an SMS the e-mail channel is offered, and vice versa.
  const channel = loaderData.channel ?? sent ?? "email";
  const withAddress =
    flow.state === "choose_method" ||
    (loaderData.channel !== undefined && loaderData.channel !== sent);
  const nodes = passed ? [] : verificationFormNodes(flow.ui.nodes, channel, withAddress);
  const hasCode = findInput(nodes, "code") !== undefined;
  const csrfNode = findInput(flow.ui.nodes, "csrf_token");
  const csrfToken =
    csrfNode && isInputNode(csrfNode) && typeof csrfNode.attributes.value === "string"
      ? csrfNode.attributes.value
      : undefined;
  const resend = resendNode(flow.ui.nodes);
  const resendAddress = typeof resend?.attributes.value === "string" ? resend.attributes.value : "";

  const fields: Record<string, FieldState> = {};
  for (const name of fieldOrder) {
    const state: FieldState = { value: name === addressField ? values[name] : undefined };
    const fieldMessages = messagesFor(name, live.errors, serverErrors);
    if (fieldMessages) state.messages = fieldMessages;
    fields[name] = state;
  }

  const onFieldInput = (name: string, input: HTMLInputElement) => {
    if (name === addressField && channel === "email") {
      lowercaseInPlace(input);
      const email = input.value.trim();
      live.set({
        [addressField]:
          email === "" || isValidEmail(email) ? [] : [registrationMessages.invalidEmail],
      });
    } else if (name === "code" && input.value.trim() !== "") {
      live.set({ code: [], ...(withAddress ? { [addressField]: [] } : {}) });
    }
  };

  const options: NodeRenderOptions = {
    fields,
    onFieldInput,
    renderInput:
      channel === "sms"
        ? {
            [addressField]: (node, state) => (
              <PhoneNodeField
                node={node}
                state={state}
                onValueChange={(value, valid) => {
                  phoneValid.current = valid;
                  live.set({
                    [addressField]:
                      value === undefined || valid ? [] : [verificationMessages.invalidPhone],
                  });
                }}
              />
            ),
          }
        : undefined,
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const code = form.elements.namedItem("code");
    const address = form.elements.namedItem(addressField);
    const checked = checkVerification(
      {
        channel,
        code: code instanceof HTMLInputElement ? code.value : undefined,
        address: address instanceof HTMLInputElement ? address.value : undefined,
      },
      // The picker posts E.164 and knows its validity; a plain field is left to the server.
      (raw) => (phoneValid.current === false ? undefined : raw),
    );
    if (checked.kind !== "invalid") return;
    event.preventDefault();
    live.set(checked.errors, { submit: true });
    focusFirstInvalid(form, fieldOrder, checked.errors);
  };

  const continueNode = flow.ui.nodes.find((node) => isAnchorAttributes(node.attributes));
  const continueLabel =
    continueNode && isAnchorAttributes(continueNode.attributes)
      ? translateMessage(translator, fromUiText(continueNode.attributes.title))
      : t("kratos.1070009");
  const description = passed
    ? undefined
    : hasCode
      ? t("verification.description.code")
      : t(channel === "sms" ? "verification.description.sms" : "verification.description.email");

  return (
    <Card>
      <title>{`${t("verification.title")} – ${t("brand.name")}`}</title>
      <h1 className="text-2xl font-semibold">{t("verification.title")}</h1>
      {description ? (
        <p className="mt-1 mb-6 text-slate-700 dark:text-slate-300">{description}</p>
      ) : (
        <div className="mb-6" />
      )}
      {notice && (
        <Notice
          id={`${flow.id}:${notice}`}
          kind="error"
          text={t(notice)}
          duration={noticeDuration(notice)}
        />
      )}
      <FlowMessages messages={flow.ui.messages} />
      {passed ? (
        continueHref && (
          <a href={continueHref} className={primaryButton}>
            {continueLabel}
          </a>
        )
      ) : (
        <>
          <FlowForm
            flowId={`${flow.id}:${channel}`}
            nodes={nodes}
            formRef={formRef}
            onSubmit={onSubmit}
            options={options}
            showErrorSummary={actionData !== undefined || live.submitted}
          />
          {resend && csrfToken !== undefined && resendAddress !== "" && (
            <ResendForm
              csrfToken={csrfToken}
              address={resendAddress}
              channel={sent ?? "email"}
              label={translateMessage(
                translator,
                resend.meta.label
                  ? fromUiText(resend.meta.label)
                  : { key: "kratos.1070008", type: "info" },
              )}
              className="mt-3"
            />
          )}
          <ChannelToggle current={channel} />
        </>
      )}
      <AddressList addresses={loaderData.addresses} csrfToken={passed ? undefined : csrfToken} />
      <p className="mt-6 text-sm">
        <GoBackLink fallback={`/${locale}/login`} label={t("flow.goBack")} />
      </p>
    </Card>
  );
}
