import { FlowForm } from "../../../flows/flow-form.tsx";
import { labelText } from "../../../flows/node-field.tsx";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import { CardSection } from "./card-section.tsx";
import { ConfirmStep, askedButton, useConfirmation } from "./confirm-step.tsx";
import type { SettingsCardProps } from "./settings-card.ts";

/**
 * Codes by e-mail or SMS as a fallback second factor: one button per verified address that
 * turns it on (code_mfa_enable=<address>) or off (code_mfa_disable=<address>).
 */
export function CodeMfaCard({ flow, nodes }: SettingsCardProps) {
  const translator = useTranslator();
  const { t } = translator;
  const confirmation = useConfirmation();
  const disable =
    confirmation.asking === "code_mfa_disable" && confirmation.askingValue !== undefined
      ? askedButton(nodes, "code_mfa_disable", confirmation.askingValue)
      : undefined;
  return (
    <CardSection
      id="settings-code"
      title={t("settings.code.title")}
      description={t("settings.code.description")}
    >
      {disable ? (
        <ConfirmStep
          action="code_mfa_disable"
          explanation={t("settings.confirm.codeMfaDisable", {
            address: confirmation.askingValue ?? "",
          })}
          confirmLabel={labelText(translator, disable.node)}
          fields={disable.fields}
        />
      ) : (
        <FlowForm
          flowId={`${flow.id}:code`}
          nodes={nodes}
          // The least secure second factor: offered, never the page's brightest button.
          options={{
            secondaryButtons: ["code_mfa_enable"],
            destructiveButtons: ["code_mfa_disable"],
          }}
          onSubmit={confirmation.interceptSubmit()}
        />
      )}
    </CardSection>
  );
}
