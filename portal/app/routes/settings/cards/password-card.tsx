import type { UiNode } from "@portal/client";
import { useRef } from "react";
import type { FormEvent } from "react";
import { FlowForm } from "../../../flows/flow-form.tsx";
import { insertAfter } from "../../../flows/node-filters.ts";
import type { FieldState } from "../../../flows/node-render-options.ts";
import { focusFirstInvalid, messagesFor, useLiveErrors } from "../../../flows/use-live-errors.ts";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import { validateConfirmPassword, validatePassword } from "../../registration/validation.ts";
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

/** Change password: the registration rules, live, with a confirmation the portal adds. */
export function PasswordCard({ flow, nodes, result, resultKey }: SettingsCardProps) {
  const { t } = useTranslator();
  const formRef = useRef<HTMLFormElement>(null);
  const live = useLiveErrors(resultKey);
  const serverErrors = result?.fieldErrors ?? {};
  const formNodes = insertAfter(nodes, passwordFields.password, [confirmNode]);

  const fields: Record<string, FieldState> = {
    [passwordFields.password]: { label: t("settings.password.new") },
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
  const revalidate = (name: string) => {
    const password = valueOf(passwordFields.password);
    const confirm = valueOf(passwordFields.confirm);
    if (name === passwordFields.password) {
      live.set({
        [passwordFields.password]: validatePassword(password),
        // Once the confirmation has been typed, it follows the password it must match.
        ...(confirm === ""
          ? {}
          : { [passwordFields.confirm]: validateConfirmPassword(password, confirm) }),
      });
    } else if (name === passwordFields.confirm) {
      live.set({ [passwordFields.confirm]: validateConfirmPassword(password, confirm) });
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const errors = checkPasswordChange(
      valueOf(passwordFields.password),
      valueOf(passwordFields.confirm),
    );
    if (Object.keys(errors).length === 0) return;
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
          onFieldInput: (name) => revalidate(name),
          onFieldBlur: (name) => revalidate(name),
        }}
        showErrorSummary={result !== undefined || live.submitted}
      />
    </CardSection>
  );
}
