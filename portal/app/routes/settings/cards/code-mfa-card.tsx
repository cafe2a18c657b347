import { FlowForm } from "../../../flows/flow-form.tsx";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import { CardSection } from "./card-section.tsx";
import type { SettingsCardProps } from "./settings-card.ts";

/**
 * Codes by e-mail or SMS as a fallback second factor: one button per verified address that
 * turns it on (code_mfa_enable=<address>) or off (code_mfa_disable=<address>).
 */
export function CodeMfaCard({ flow, nodes }: SettingsCardProps) {
  const { t } = useTranslator();
  return (
    <CardSection
      id="settings-code"
      title={t("settings.code.title")}
      description={t("settings.code.description")}
    >
      <FlowForm
        flowId={`${flow.id}:code`}
        nodes={nodes}
        options={{ secondaryButtons: ["code_mfa_disable"] }}
      />
    </CardSection>
  );
}
