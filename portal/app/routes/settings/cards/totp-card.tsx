import type { UiNode } from "@portal/client";
import { FlowForm } from "../../../flows/flow-form.tsx";
import { FlowNode } from "../../../flows/flow-node.tsx";
import { nodeLabel, translateMessage } from "../../../flows/messages.ts";
import { findInput } from "../../../flows/node-filters.ts";
import { isImageAttributes, isRecord, isTextAttributes } from "../../../flows/node-guards.ts";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import { labelText } from "../../../flows/node-field.tsx";
import { totpNodes } from "./card-shows.ts";
import { CardSection } from "./card-section.tsx";
import { ConfirmStep, askedButton, useConfirmation } from "./confirm-step.tsx";
import { CopyButton } from "./copy-button.tsx";
import type { SettingsCardProps } from "./settings-card.ts";

/** Element id of the key, for people (and tests) who type it into their app by hand. */
const totpKeyId = "totp-secret-key";

/** The key in the clear: the text node's context, else its text. */
function secretOf(node: UiNode | undefined): string | undefined {
  if (!node || !isTextAttributes(node.attributes)) return undefined;
  const { text } = node.attributes;
  const secret = isRecord(text.context) ? text.context.secret : undefined;
  return typeof secret === "string" && secret !== "" ? secret : text.text || undefined;
}

/**
 * Authenticator app: while none is linked, the QR code, the key as text with a copy button,
 * and the code that confirms the app; once linked, the button that unlinks it.
 */
export function TotpCard({ flow, nodes }: SettingsCardProps) {
  const translator = useTranslator();
  const { t } = translator;
  const own = totpNodes(nodes);
  const qr = own.find((node) => isImageAttributes(node.attributes));
  const keyNode = own.find(
    (node) => isTextAttributes(node.attributes) && node.attributes.id === "totp_secret_key",
  );
  const secret = secretOf(keyNode);
  const keyLabel = keyNode && nodeLabel(keyNode);
  const linked = findInput(own, "totp_unlink") !== undefined;
  const formNodes = own.filter((node) => node !== qr && node !== keyNode);
  const confirmation = useConfirmation();
  const unlink =
    confirmation.asking === "totp_unlink" ? askedButton(nodes, "totp_unlink") : undefined;

  return (
    <CardSection
      id="settings-totp"
      title={t("settings.totp.title")}
      description={t("settings.totp.description")}
    >
      <p className="mb-4">{t(linked ? "settings.totp.linked" : "settings.totp.setup")}</p>
      {qr && <FlowNode node={qr} />}
      {secret && (
        <div className="mb-4">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {keyLabel ? translateMessage(translator, keyLabel) : t("settings.totp.key")}
          </p>
          <p className="my-2">
            <code id={totpKeyId} className="font-mono text-lg break-all">
              {secret}
            </code>
          </p>
          <CopyButton text={secret} label={t("settings.totp.copyKey")} />
        </div>
      )}
      {unlink ? (
        <ConfirmStep
          action="totp_unlink"
          explanation={t("settings.confirm.totpUnlink")}
          confirmLabel={labelText(translator, unlink.node)}
          fields={unlink.fields}
        />
      ) : (
        <FlowForm
          flowId={`${flow.id}:totp`}
          nodes={formNodes}
          options={{ destructiveButtons: ["totp_unlink"] }}
          onSubmit={confirmation.interceptSubmit()}
        />
      )}
    </CardSection>
  );
}
