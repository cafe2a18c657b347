import { useRef, useState } from "react";
import type { FormEvent } from "react";
import { useLocation } from "react-router";
import type { Route } from "./+types/route";
import { answerOr } from "../../flows/action-answer.ts";
import { flowAction, flowLoader } from "../../flows/flow-route-module.server.ts";
import { FlowForm } from "../../flows/flow-form.tsx";
import { FlowMessages } from "../../flows/flow-messages.tsx";
import { lowercaseInPlace } from "../../flows/lowercase-input.ts";
import { nodeName } from "../../flows/node-filters.ts";
import type { FieldState } from "../../flows/node-render-options.ts";
import { PasswordRules } from "../../flows/password-rules.tsx";
import { useHydrated } from "../../flows/use-hydrated.ts";
import {
  checkWhen,
  focusFirstInvalid,
  messagesFor,
  showsError,
  useLiveErrors,
} from "../../flows/use-live-errors.ts";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { Alert } from "../../ui/alert.tsx";
import { Card } from "../../ui/card.tsx";
import { PageTitle } from "../../ui/page-title.tsx";
import { TextLink } from "../../ui/text-link.tsx";
import { FlowNotice } from "../flow-notice.tsx";
import { loadRegistration, submitRegistration } from "./registration.server.ts";
import { nodnaHash } from "../nodna.ts";
import { registrationNodes } from "./registration-nodes.ts";
import type { RegistrationErrors } from "./validation.ts";
import {
  fieldNames,
  isRegistrationField,
  readRegistrationInput,
  validateField,
  validateRegistration,
} from "./validation.ts";

export const loader = flowLoader(loadRegistration);

export const action = flowAction(submitRegistration);

const passwordRulesId = "password-rules";

const emailFields: readonly string[] = [fieldNames.email, fieldNames.confirmEmail];

/** Which other field's message depends on this one. */
const dependents: Partial<Record<string, string>> = {
  [fieldNames.email]: fieldNames.confirmEmail,
  [fieldNames.password]: fieldNames.confirmPassword,
};

export default function Registration({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useTranslator();
  const location = useLocation();
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const flow = answerOr(actionData, "flow", loaderData.flow);
  const notice = answerOr(actionData, "notice", loaderData.notice);
  const serverErrors: RegistrationErrors = answerOr(actionData, "fieldErrors", {});
  const values: Partial<Record<string, string>> = answerOr(actionData, "values", {});

  // Live messages belong to the action result they started from: a new result resets them.
  const live = useLiveErrors(actionData);
  const [typedPassword, setTypedPassword] = useState({ from: actionData, value: "" });
  const password = typedPassword.from === actionData ? typedPassword.value : "";

  const nodes = registrationNodes(flow.ui.nodes);
  const fields: Record<string, FieldState> = {};
  for (const node of nodes) {
    const name = nodeName(node);
    if (name === undefined || !isRegistrationField(name)) continue;
    const state: FieldState = { value: values[name] };
    const messages = messagesFor(name, live.errors, serverErrors);
    if (messages) state.messages = messages;
    if (name === fieldNames.confirmEmail) state.label = t("registration.confirmEmail");
    if (name === fieldNames.confirmPassword) state.label = t("registration.confirmPassword");
    if (name === fieldNames.password) {
      state.details = {
        id: passwordRulesId,
        content: <PasswordRules id={passwordRulesId} value={password} />,
      };
    }
    fields[name] = state;
  }

  const currentInput = () => {
    const form = formRef.current;
    return readRegistrationInput((name) => {
      const element = form?.elements.namedItem(name);
      return element instanceof HTMLInputElement ? element.value : undefined;
    });
  };

  const revalidate = (names: readonly string[]) => {
    const input = currentInput();
    const errors: RegistrationErrors = {};
    for (const name of names) {
      if (isRegistrationField(name)) errors[name] = validateField(name, input);
    }
    live.set(errors);
  };

  /** The field itself when due (see checkWhen), and the field that must match it once changed. */
  const check = (event: "input" | "blur", name: string) => {
    const due = (field: string, changed: boolean) =>
      checkWhen(event, {
        changed,
        showsError: showsError(messagesFor(field, live.errors, serverErrors)),
      });
    const dependent = dependents[name];
    const names = [
      ...(due(name, event === "input" || live.changed(name)) ? [name] : []),
      ...(dependent && due(dependent, live.changed(dependent)) ? [dependent] : []),
    ];
    if (names.length > 0) revalidate(names);
  };

  const onFieldInput = (name: string, element: HTMLInputElement) => {
    if (emailFields.includes(name)) lowercaseInPlace(element);
    if (name === fieldNames.password) setTypedPassword({ from: actionData, value: element.value });
    live.markChanged(name);
    check("input", name);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // The clicked button's method: a passkey sign-up has no password to check.
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const method = submitter instanceof HTMLButtonElement ? submitter.value : undefined;
    const errors = validateRegistration(currentInput(), method);
    if (Object.keys(errors).length === 0) return;
    event.preventDefault();
    live.set(errors, { submit: true });
    focusFirstInvalid(event.currentTarget, Object.values(fieldNames), errors);
  };

  /** A passkey sign-up checks the e-mail fields before the browser makes the passkey. */
  const beforeTrigger = () => {
    const errors = validateRegistration(currentInput(), "passkey");
    if (Object.keys(errors).length === 0) return true;
    live.set(errors, { submit: true });
    if (formRef.current) focusFirstInvalid(formRef.current, Object.values(fieldNames), errors);
    return false;
  };

  return (
    <Card>
      <PageTitle title={t("registration.title")} />
      <p className="mt-1 mb-6 text-slate-700 dark:text-slate-300">
        {t("registration.description")}
      </p>
      {/* ?nodna= tells the server; the hash alone (an old link) needs JavaScript. */}
      {(loaderData.nodna || (hydrated && location.hash === nodnaHash)) && (
        <Alert status="warning">
          <p>{t("registration.nodnaWarning")}</p>
        </Alert>
      )}
      <FlowNotice flowId={flow.id} notice={notice} />
      <FlowMessages messages={flow.ui.messages} />
      <FlowForm
        flowId={flow.id}
        nodes={nodes}
        formRef={formRef}
        onSubmit={onSubmit}
        options={{
          fields,
          onFieldInput,
          onFieldBlur: (name) => check("blur", name),
          beforeTrigger,
          // "Sign up with passkey" is the outlined button: the page has one main action.
          secondaryButtons: ["passkey_register_trigger"],
        }}
        showErrorSummary={actionData !== undefined || live.submitted}
      />
      <p className="mt-6 text-sm">
        <TextLink to={`/${locale}/login`} strong>
          {t("registration.haveAccount")}
        </TextLink>
      </p>
    </Card>
  );
}
