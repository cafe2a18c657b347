import type { UiNode } from "@portal/client";
import { Form } from "react-router";
import { FlowForm } from "../../../flows/flow-form.tsx";
import { labelText, valueAsString } from "../../../flows/node-field.tsx";
import { inputValue } from "../../../flows/node-filters.ts";
import { isInputNode, isRecord } from "../../../flows/node-guards.ts";
import type { InputAttributes, NodeWith } from "../../../flows/node-guards.ts";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import type { MessageKey } from "../../../i18n/translator.ts";
import { destructiveButton } from "../../../ui/buttons.ts";
import { CardSection } from "./card-section.tsx";
import { ConfirmStep, askedButton, useConfirmation } from "./confirm-step.tsx";
import type { SettingsCardProps } from "./settings-card.ts";

/** What differs between the passkeys card and the security keys card. */
interface CredentialKind {
  anchor: string;
  /** Kratos' button per credential (value: the credential's id). */
  remove: "passkey_remove" | "webauthn_remove";
  title: MessageKey;
  description: MessageKey;
  none: MessageKey;
  list: MessageKey;
  confirm: MessageKey;
}

const passkeys: CredentialKind = {
  anchor: "settings-passkeys",
  remove: "passkey_remove",
  title: "settings.passkey.title",
  description: "settings.passkey.description",
  none: "settings.passkey.none",
  list: "settings.passkey.list",
  confirm: "settings.confirm.passkeyRemove",
};

const securityKeys: CredentialKind = {
  anchor: "settings-security-keys",
  remove: "webauthn_remove",
  title: "settings.webauthn.title",
  description: "settings.webauthn.description",
  none: "settings.webauthn.none",
  list: "settings.webauthn.list",
  confirm: "settings.confirm.webauthnRemove",
};

/** One credential as its remove button's label describes it (Kratos 1050018 / 1050020). */
interface Credential {
  node: NodeWith<InputAttributes>;
  id: string;
  name: string;
  /** Undefined when the identity service does not know (Kratos sends year 1 then). */
  addedAt: Date | undefined;
}

function credentialsOf(nodes: readonly UiNode[], remove: string): Credential[] {
  return nodes.flatMap((node) => {
    if (!isInputNode(node) || node.attributes.name !== remove) return [];
    const context = node.meta.label?.context;
    const name =
      isRecord(context) && typeof context.display_name === "string" ? context.display_name : "";
    const added =
      isRecord(context) && typeof context.added_at === "string"
        ? new Date(context.added_at)
        : undefined;
    const known = added !== undefined && added.getTime() > 0;
    return [
      {
        node,
        id: valueAsString(node.attributes.value) ?? "",
        name,
        addedAt: known ? added : undefined,
      },
    ];
  });
}

export function PasskeysCard(props: SettingsCardProps) {
  return <CredentialsCard {...props} kind={passkeys} />;
}

export function SecurityKeysCard(props: SettingsCardProps) {
  return <CredentialsCard {...props} kind={securityKeys} />;
}

/**
 * Passkeys (first factor) or security keys (second factor): each one with its name and the day
 * it was added, and its remove button, which asks first; under them the form that adds one (a
 * name for a security key, then the browser's own dialog, see flows/webauthn).
 */
function CredentialsCard({ flow, nodes, kind }: SettingsCardProps & { kind: CredentialKind }) {
  const translator = useTranslator();
  const { t, locale } = translator;
  const confirmation = useConfirmation();
  const credentials = credentialsOf(nodes, kind.remove);
  const asked =
    confirmation.asking === kind.remove && confirmation.askingValue !== undefined
      ? askedButton(nodes, kind.remove, confirmation.askingValue)
      : undefined;
  const askedName = credentials.find(
    (credential) => credential.id === confirmation.askingValue,
  )?.name;
  const addNodes = nodes.filter(
    (node) => !(isInputNode(node) && node.attributes.name === kind.remove),
  );
  const day = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" });
  const listId = `${kind.anchor}-list`;

  return (
    <CardSection id={kind.anchor} title={t(kind.title)} description={t(kind.description)}>
      {credentials.length === 0 ? (
        <p className="mb-4">{t(kind.none)}</p>
      ) : (
        <>
          <h3 id={listId} className="sr-only">
            {t(kind.list)}
          </h3>
          <ul aria-labelledby={listId} className="mb-4 flex flex-col gap-3">
            {credentials.map((credential) => (
              <li
                key={credential.id}
                className="flex flex-col gap-2 rounded-md border border-slate-300 p-3 sm:flex-row sm:items-center sm:justify-between dark:border-slate-600"
              >
                <div className="min-w-0">
                  <p className="font-medium break-words">{credential.name}</p>
                  {credential.addedAt && (
                    <p className="text-sm text-slate-700 dark:text-slate-300">
                      {t("settings.credential.added", { date: day.format(credential.addedAt) })}
                    </p>
                  )}
                </div>
                {!asked && (
                  <Form
                    method="post"
                    onSubmit={confirmation.interceptSubmit()}
                    className="shrink-0"
                  >
                    <input
                      type="hidden"
                      name="csrf_token"
                      value={inputValue(nodes, "csrf_token") ?? ""}
                    />
                    <button
                      type="submit"
                      name={kind.remove}
                      value={credential.id}
                      className={`${destructiveButton} sm:w-auto`}
                    >
                      {labelText(translator, credential.node)}
                    </button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {asked ? (
        <ConfirmStep
          action={kind.remove}
          explanation={t(kind.confirm, { name: askedName ?? "" })}
          confirmLabel={labelText(translator, asked.node)}
          fields={asked.fields}
        />
      ) : (
        <FlowForm flowId={`${flow.id}:${kind.remove}`} nodes={addNodes} />
      )}
    </CardSection>
  );
}
