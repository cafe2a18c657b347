import { useRef } from "react";
import type { FormEvent } from "react";
import { FlowForm } from "../../../flows/flow-form.tsx";
import type { FieldState, NodeRenderOptions } from "../../../flows/node-render-options.ts";
import { messagesFor, useLiveErrors } from "../../../flows/use-live-errors.ts";
import { useOwnAnswer } from "../../../flows/use-own-answer.ts";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import { PhoneNodeField } from "../../../ui/phone/phone-node-field.tsx";
import { phoneMessages } from "../settings-rules.ts";
import { CardSection } from "./card-section.tsx";
import type { SettingsCardProps } from "./settings-card.ts";

const emailTrait = "traits.email";
const phoneTrait = "traits.phone";

/**
 * The profile traits. The e-mail is shown but cannot be changed here (the action sends the
 * stored one); the phone number uses the phone picker and can be cleared.
 */
export function ProfileCard({ flow, nodes, result }: SettingsCardProps) {
  const { t } = useTranslator();
  // This card's messages last until this card is saved, whatever other cards do meanwhile.
  const answer = useOwnAnswer();
  const live = useLiveErrors(answer.key);
  /** Whether the picker holds a valid number; undefined until it has reported. */
  const phoneValid = useRef<boolean | undefined>(undefined);
  const serverErrors = result?.fieldErrors ?? {};

  const phone: FieldState = { value: result?.values[phoneTrait] };
  const phoneErrors = messagesFor(phoneTrait, live.errors, serverErrors);
  if (phoneErrors) phone.messages = phoneErrors;
  const fields: Record<string, FieldState> = {
    [emailTrait]: { disabled: true, hint: t("settings.profile.emailHint") },
    [phoneTrait]: phone,
  };

  const options: NodeRenderOptions = {
    fields,
    renderInput: {
      [phoneTrait]: (node, state) => (
        <PhoneNodeField
          node={node}
          state={state}
          clearable
          onValueChange={(value, valid) => {
            phoneValid.current = value === undefined ? undefined : valid;
            live.set({ [phoneTrait]: value === undefined || valid ? [] : [phoneMessages.invalid] });
          }}
        />
      ),
    },
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (phoneValid.current !== false) {
      answer.sent();
      return;
    }
    event.preventDefault();
    live.set({ [phoneTrait]: [phoneMessages.invalid] }, { submit: true });
    const input = event.currentTarget.querySelector<HTMLInputElement>(`input[type="tel"]`);
    input?.focus();
  };

  return (
    <CardSection id="settings-profile" title={t("settings.profile.title")}>
      <FlowForm
        flowId={`${flow.id}:profile`}
        nodes={nodes}
        onSubmit={onSubmit}
        options={options}
        showErrorSummary={result !== undefined || live.submitted}
      />
    </CardSection>
  );
}
