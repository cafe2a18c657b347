import { useRef, useState } from "react";
import type { FormEvent } from "react";
import { Link, useLocation } from "react-router";
import type { Route } from "./+types/route";
import { FlowForm } from "../../flows/flow-form.tsx";
import { FlowMessages } from "../../flows/flow-messages.tsx";
import { lowercaseInPlace } from "../../flows/lowercase-input.ts";
import { nodeName } from "../../flows/node-filters.ts";
import type { FieldState } from "../../flows/node-render-options.ts";
import { useHydrated } from "../../flows/use-hydrated.ts";
import { localeOf } from "../../i18n/locales.ts";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { Alert } from "../../ui/alert.tsx";
import { Card } from "../../ui/card.tsx";
import { Notice } from "../../ui/notice.tsx";
import { noticeDuration } from "../notice-query.ts";
import { loadRegistration, submitRegistration } from "./registration.server.ts";
import { nodnaHash } from "./nodna.ts";
import { registrationNodes } from "./registration-nodes.ts";
import type { RegistrationErrors } from "./validation.ts";
import {
  fieldNames,
  isRegistrationField,
  readRegistrationInput,
  validateField,
  validateRegistration,
} from "./validation.ts";

export function loader({ request, context, params, url }: Route.LoaderArgs) {
  return loadRegistration({ request, context, locale: localeOf(params), url });
}

export function action({ request, context, params, url }: Route.ActionArgs) {
  return submitRegistration({ request, context, locale: localeOf(params), url });
}

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
  const flow = actionData && "flow" in actionData ? actionData.flow : loaderData.flow;
  const notice = actionData && "notice" in actionData ? actionData.notice : loaderData.notice;
  const serverErrors: RegistrationErrors =
    actionData && "fieldErrors" in actionData ? actionData.fieldErrors : {};
  const values: Partial<Record<string, string>> =
    actionData && "values" in actionData ? actionData.values : {};

  // Live messages, keyed by the action result they started from so a new result resets them.
  const [live, setLive] = useState<{
    from: unknown;
    errors: RegistrationErrors;
    submitted: boolean;
  }>({ from: actionData, errors: {}, submitted: false });
  const current = live.from === actionData;
  const liveErrors = current ? live.errors : {};

  const nodes = registrationNodes(flow.ui.nodes);
  const fields: Record<string, FieldState> = {};
  for (const node of nodes) {
    const name = nodeName(node);
    if (name === undefined || !isRegistrationField(name)) continue;
    const state: FieldState = { value: values[name] };
    const messages = name in liveErrors ? liveErrors[name] : serverErrors[name];
    if (messages) state.messages = messages;
    if (name === fieldNames.confirmEmail) state.label = t("registration.confirmEmail");
    if (name === fieldNames.confirmPassword) state.label = t("registration.confirmPassword");
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
    const errors: RegistrationErrors = { ...liveErrors };
    for (const name of names) {
      if (isRegistrationField(name)) errors[name] = validateField(name, input);
    }
    setLive({ from: actionData, errors, submitted: current && live.submitted });
  };

  const onFieldInput = (name: string, element: HTMLInputElement) => {
    if (emailFields.includes(name)) lowercaseInPlace(element);
    const dependent = dependents[name];
    const confirmTyped = dependent !== undefined && fieldHasValue(formRef.current, dependent);
    revalidate(confirmTyped && dependent ? [name, dependent] : [name]);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const errors = validateRegistration(currentInput());
    if (Object.keys(errors).length === 0) return;
    event.preventDefault();
    setLive({ from: actionData, errors, submitted: true });
    const firstInvalid = Object.values(fieldNames).find((name) => errors[name]);
    const element = firstInvalid ? event.currentTarget.elements.namedItem(firstInvalid) : null;
    if (element instanceof HTMLInputElement) element.focus();
  };

  return (
    <Card>
      <title>{`${t("registration.title")} – ${t("brand.name")}`}</title>
      <h1 className="text-2xl font-semibold">{t("registration.title")}</h1>
      <p className="mt-1 mb-6 text-slate-700 dark:text-slate-300">
        {t("registration.description")}
      </p>
      {/* ?nodna= tells the server; the hash alone (an old link) needs JavaScript. */}
      {(loaderData.nodna || (hydrated && location.hash === nodnaHash)) && (
        <Alert status="warning">
          <p>{t("registration.nodnaWarning")}</p>
        </Alert>
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
      <FlowForm
        flowId={flow.id}
        nodes={nodes}
        formRef={formRef}
        onSubmit={onSubmit}
        options={{ fields, onFieldInput, onFieldBlur: (name) => revalidate([name]) }}
        showErrorSummary={actionData !== undefined || (current && live.submitted)}
      />
      <p className="mt-6 text-sm">
        <Link
          to={`/${locale}/login`}
          className="font-medium text-blue-700 underline underline-offset-4 dark:text-blue-300"
        >
          {t("registration.haveAccount")}
        </Link>
      </p>
    </Card>
  );
}

function fieldHasValue(form: HTMLFormElement | null, name: string): boolean {
  const element = form?.elements.namedItem(name);
  return element instanceof HTMLInputElement && element.value !== "";
}
