import { FlowForm } from "../../../flows/flow-form.tsx";
import { nodeLabel, translateMessage } from "../../../flows/messages.ts";
import { labelText } from "../../../flows/node-field.tsx";
import { findInput } from "../../../flows/node-filters.ts";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import { secondaryButton } from "../../../ui/buttons.ts";
import { useTimestampFormatter } from "../devices/format-timestamp.ts";
import {
  backupCodesFile,
  backupCodesFileName,
  codesInClear,
  downloadHref,
  isBackupCodesNode,
  readBackupCodes,
} from "./backup-codes.ts";
import { CardSection } from "./card-section.tsx";
import { ConfirmStep, askedButton, useConfirmation } from "./confirm-step.tsx";
import { CopyButton } from "./copy-button.tsx";
import type { SettingsCardProps } from "./settings-card.ts";

/**
 * Backup codes (logingov-anchor §1.4): generate, and while new codes are in the clear copy or
 * download them before confirming; reveal shows stored ones masked (they are kept hashed);
 * disable. The codes are a list of their own, the buttons the group's form.
 */
export function BackupCodesCard({ flow, nodes }: SettingsCardProps) {
  const translator = useTranslator();
  const { t, locale } = translator;
  const format = useTimestampFormatter(locale);
  const codes = readBackupCodes(nodes);
  const clear = codesInClear(codes);
  const codesNode = nodes.find(isBackupCodesNode);
  const listLabel = codesNode && nodeLabel(codesNode);
  const file = backupCodesFile(
    t("settings.backupCodes.fileTitle", { brand: t("brand.name") }),
    t("settings.backupCodes.fileNote"),
    clear,
  );

  // Stored codes exist while the flow offers to disable them: generating then replaces them.
  const stored = findInput(nodes, "lookup_secret_disable") !== undefined;
  const confirming = findInput(nodes, "lookup_secret_confirm") !== undefined;
  const confirmation = useConfirmation();
  const asked =
    confirmation.asking === "lookup_secret_disable" ||
    (confirmation.asking === "lookup_secret_regenerate" && stored)
      ? askedButton(nodes, confirmation.asking)
      : undefined;

  return (
    <CardSection
      id="settings-backup-codes"
      title={t("settings.backupCodes.title")}
      description={t("settings.backupCodes.description")}
    >
      {codes.length > 0 && (
        <div className="mb-4">
          <p className="mb-2 font-medium">
            {clear.length > 0
              ? t("settings.backupCodes.shownOnce")
              : t("settings.backupCodes.hidden")}
          </p>
          {listLabel && (
            <p id="backup-codes-label" className="mb-2 text-sm">
              {translateMessage(translator, listLabel)}
            </p>
          )}
          <ul
            aria-labelledby={listLabel ? "backup-codes-label" : undefined}
            className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono"
          >
            {codes.map((code, index) => (
              <li key={index}>
                {code.kind === "code" && code.code}
                {code.kind === "hidden" && (
                  <>
                    <span aria-hidden="true">********</span>
                    <span className="sr-only">{t("settings.backupCodes.hiddenCode")}</span>
                  </>
                )}
                {code.kind === "used" && (
                  <span className="font-sans text-sm text-slate-700 dark:text-slate-300">
                    {t("settings.backupCodes.used", { date: format(code.usedAt) ?? code.usedAt })}
                  </span>
                )}
              </li>
            ))}
          </ul>
          {clear.length > 0 && (
            <div className="mt-4 flex flex-wrap items-start gap-3">
              <a
                href={downloadHref(file)}
                download={backupCodesFileName}
                className={`${secondaryButton} sm:w-auto`}
              >
                {t("settings.backupCodes.download")}
              </a>
              <CopyButton text={clear.join("\n")} label={t("settings.backupCodes.copy")} />
            </div>
          )}
        </div>
      )}
      {asked && confirmation.asking ? (
        <ConfirmStep
          action={confirmation.asking}
          explanation={t(
            confirmation.asking === "lookup_secret_disable"
              ? "settings.confirm.backupCodesDisable"
              : "settings.confirm.backupCodesRegenerate",
          )}
          confirmLabel={labelText(translator, asked.node)}
          fields={asked.fields}
        />
      ) : (
        <FlowForm
          flowId={`${flow.id}:lookup_secret`}
          nodes={nodes.filter((node) => !isBackupCodesNode(node))}
          // One primary action: "generate" steps back while new codes wait for confirmation or
          // stored ones would be replaced.
          options={{
            secondaryButtons: [
              "lookup_secret_reveal",
              ...(stored || confirming ? ["lookup_secret_regenerate"] : []),
            ],
            destructiveButtons: ["lookup_secret_disable"],
          }}
          onSubmit={confirmation.interceptSubmit(
            (action) => action !== "lookup_secret_regenerate" || stored,
          )}
        />
      )}
    </CardSection>
  );
}
