import { useRef } from "react";
import type { FormEvent } from "react";
import type { Route } from "./+types/route";
import { answerOr } from "../../flows/action-answer.ts";
import { flowAction, flowLoader } from "../../flows/flow-route-module.server.ts";
import { FlowForm } from "../../flows/flow-form.tsx";
import { FlowMessages } from "../../flows/flow-messages.tsx";
import { codeErrorsOnField } from "../../flows/code-errors.ts";
import { lowercaseInPlace } from "../../flows/lowercase-input.ts";
import type { FieldState } from "../../flows/node-render-options.ts";
import {
  checkWhen,
  focusFirstInvalid,
  messagesFor,
  showsError,
  submitterName,
  useLiveErrors,
} from "../../flows/use-live-errors.ts";
import type { FieldErrors } from "../../flows/use-live-errors.ts";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { Card } from "../../ui/card.tsx";
import { PageTitle } from "../../ui/page-title.tsx";
import { TextLink } from "../../ui/text-link.tsx";
import { FlowNotice } from "../flow-notice.tsx";
import { validateEmail } from "../../validation/email.ts";
import { messages } from "../../validation/messages.ts";
import { submitRecovery, loadRecovery } from "./recovery.server.ts";
import { validateRecovery } from "./recovery-validation.ts";

export const loader = flowLoader(loadRecovery);

export const action = flowAction(submitRecovery);

const fieldOrder = ["email", "code"];

export default function Recovery({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useTranslator();
  const formRef = useRef<HTMLFormElement>(null);
  const flow = codeErrorsOnField(answerOr(actionData, "flow", loaderData.flow));
  const notice = answerOr(actionData, "notice", loaderData.notice);
  const serverErrors: FieldErrors = answerOr(actionData, "fieldErrors", {});
  const values: Partial<Record<string, string>> = answerOr(actionData, "values", {});
  const live = useLiveErrors(actionData);

  const fields: Record<string, FieldState> = {};
  for (const name of fieldOrder) {
    const state: FieldState = { value: values[name] };
    const fieldMessages = messagesFor(name, live.errors, serverErrors);
    if (fieldMessages) state.messages = fieldMessages;
    fields[name] = state;
  }

  const onFieldInput = (name: string, input: HTMLInputElement) => {
    if (name === "email") {
      lowercaseInPlace(input);
      live.markChanged(name);
      // While typing, only an error already shown is checked again (see checkWhen).
      if (showsError(messagesFor(name, live.errors, serverErrors))) {
        live.set({ email: validateEmail(input.value) });
      }
    } else if (name === "code" && messagesFor(name, live.errors, serverErrors)?.length) {
      live.set({ code: input.value.trim() === "" ? [messages.required] : [] });
    }
  };

  const onFieldBlur = (name: string, input: HTMLInputElement) => {
    const shown = showsError(messagesFor(name, live.errors, serverErrors));
    if (name === "email" && checkWhen("blur", { changed: live.changed(name), showsError: shown })) {
      live.set({ email: validateEmail(input.value) });
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const email = form.elements.namedItem("email");
    const code = form.elements.namedItem("code");
    // The address comes from the e-mail field, or from "Resend code" when that was pressed.
    const resend = submitterName(event) === "email" && email instanceof HTMLButtonElement;
    const checked = validateRecovery({
      email: email instanceof HTMLInputElement || resend ? email.value : undefined,
      code: code instanceof HTMLInputElement ? code.value : undefined,
    });
    if (checked.kind !== "invalid") return;
    event.preventDefault();
    live.set(checked.errors, { submit: true });
    focusFirstInvalid(form, fieldOrder, checked.errors);
  };

  return (
    <Card>
      <PageTitle title={t("recovery.title")} />
      {flow.state === "choose_method" ? (
        <p className="mt-1 mb-6 text-slate-700 dark:text-slate-300">{t("recovery.description")}</p>
      ) : (
        <div className="mb-6" />
      )}
      <FlowNotice flowId={flow.id} notice={notice} />
      <FlowMessages messages={flow.ui.messages} />
      <FlowForm
        flowId={flow.id}
        nodes={flow.ui.nodes}
        formRef={formRef}
        onSubmit={onSubmit}
        options={{
          fields,
          secondaryButtons: ["email"],
          onFieldInput,
          onFieldBlur,
        }}
        showErrorSummary={actionData !== undefined || live.submitted}
      />
      <p className="mt-6 text-sm">
        <TextLink to={`/${locale}/login`} strong>
          {t("flow.goBack")}
        </TextLink>
      </p>
    </Card>
  );
}
