import type { UiNode } from "@portal/client";
import { useRef, useState } from "react";
import type { FormEvent } from "react";
import { FlowForm } from "../../../flows/flow-form.tsx";
import { insertAfter } from "../../../flows/node-filters.ts";
import type { FieldState } from "../../../flows/node-render-options.ts";
import { PasswordRules } from "../../../flows/password-rules.tsx";
import {
  checkWhen,
  focusFirstInvalid,
  messagesFor,
  showsError,
  useLiveErrors,
} from "../../../flows/use-live-errors.ts";
import type { FieldErrors } from "../../../flows/use-live-errors.ts";
import { useOwnAnswer } from "../../../flows/use-own-answer.ts";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import { validateConfirmPassword, validatePassword } from "../../../validation/password.ts";
import { checkPasswordChange, passwordFields } from "../settings-rules.ts";
import { CardSection } from "./card-section.tsx";
import type { SettingsCardProps } from "./settings-card.ts";

/** The portal's confirmation field: required, new-password autocomplete, never posted on. */
const confirmNode: UiNode = {
  type: "input",
  group: "password",
  attributes: {
    node_type: "input",
    name: passwordFields.confirm,
    type: "password",
    required: true,
    disabled: false,
    autocomplete: "new-password",
    value: "",
  },
  messages: [],
  meta: {},
};

const order = [passwordFields.password, passwordFields.confirm];

const rulesId = "settings-password-rules";

/**
 * Change password: the registration rules, with their checklist, and a confirmation the portal
 * adds. Its messages belong to this card's own answers: another card being saved keeps them,
 * this card being saved clears them.
 */
export function PasswordCard({ flow, nodes, result }: SettingsCardProps) {
  const { t } = useTranslator();
  const formRef = useRef<HTMLFormElement>(null);
  const answer = useOwnAnswer();
  const live = useLiveErrors(answer.key);
  const [typed, setTyped] = useState({ from: answer.key, value: "" });
  const serverErrors = result?.fieldErrors ?? {};
  const formNodes = insertAfter(nodes, passwordFields.password, [confirmNode]);

  const fields: Record<string, FieldState> = {
    [passwordFields.password]: {
      label: t("settings.password.new"),
      details: {
        id: rulesId,
        content: (
          <PasswordRules id={rulesId} value={typed.from === answer.key ? typed.value : ""} />
        ),
      },
    },
    [passwordFields.confirm]: { label: t("settings.password.confirm") },
  };
  for (const name of order) {
    const messages = messagesFor(name, live.errors, serverErrors);
    const state = fields[name];
    if (messages && state) state.messages = messages;
  }

  const valueOf = (name: string) => {
    const element = formRef.current?.elements.namedItem(name);
    return element instanceof HTMLInputElement ? element.value : "";
  };
  const due = (event: "input" | "blur", name: string) =>
    checkWhen(event, {
      changed: event === "input" || live.changed(name),
      showsError: showsError(messagesFor(name, live.errors, serverErrors)),
    });
  /** The field when due (see checkWhen); the confirmation follows the password it must match. */
  const check = (event: "input" | "blur", name: string) => {
    const password = valueOf(passwordFields.password);
    const confirm = valueOf(passwordFields.confirm);
    const changes: FieldErrors = {};
    if (name === passwordFields.password && due(event, name)) {
      changes[name] = validatePassword(password);
    }
    const confirmDue =
      name === passwordFields.confirm
        ? due(event, name)
        : checkWhen(event, {
            changed: live.changed(passwordFields.confirm),
            showsError: showsError(messagesFor(passwordFields.confirm, live.errors, serverErrors)),
          });
    if (confirmDue) changes[passwordFields.confirm] = validateConfirmPassword(password, confirm);
    if (Object.keys(changes).length > 0) live.set(changes);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const errors = checkPasswordChange(
      valueOf(passwordFields.password),
      valueOf(passwordFields.confirm),
    );
    if (Object.keys(errors).length === 0) {
      answer.sent();
      return;
    }
    event.preventDefault();
    live.set(errors, { submit: true });
    focusFirstInvalid(event.currentTarget, order, errors);
  };

  return (
    <CardSection id="settings-password" title={t("settings.password.title")}>
      <FlowForm
        flowId={`${flow.id}:password`}
        nodes={formNodes}
        formRef={formRef}
        onSubmit={onSubmit}
        options={{
          fields,
          onFieldInput: (name, input) => {
            if (name === passwordFields.password) {
              setTyped({ from: answer.key, value: input.value });
            }
            live.markChanged(name);
            check("input", name);
          },
          onFieldBlur: (name) => check("blur", name),
        }}
        showErrorSummary={result !== undefined || live.submitted}
      />
    </CardSection>
  );
}
