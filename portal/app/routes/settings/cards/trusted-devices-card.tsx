import { Form, useNavigation } from "react-router";
import { labelText, valueAsString } from "../../../flows/node-field.tsx";
import { inputValue } from "../../../flows/node-filters.ts";
import { isInputNode } from "../../../flows/node-guards.ts";
import type { InputAttributes, NodeWith } from "../../../flows/node-guards.ts";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import { secondaryButton } from "../../../ui/buttons.ts";
import { DeviceSummary } from "../devices/device-summary.tsx";
import { useTimestampFormatter } from "../devices/format-timestamp.ts";
import {
  parseTrustedDevices,
  thisDeviceIds,
  trustedDevicesData,
} from "../devices/trusted-devices.ts";
import { untrustName } from "../devices/trusted-devices-node.ts";
import { CardSection } from "./card-section.tsx";
import type { SettingsCardProps } from "./settings-card.ts";

/**
 * "Manage trusted devices" (spec §2): every browser that skips the second factor, with its
 * type, system, browser, address and since when, the one in use marked, and a button that
 * stops trusting it (posts totp_device_untrust=<id>). The list scrolls past 635px.
 */
export function TrustedDevicesCard({ nodes, fingerprint }: SettingsCardProps) {
  const translator = useTranslator();
  const { t, locale } = translator;
  const format = useTimestampFormatter(locale);
  const submitting = useNavigation().state === "submitting";
  const devices = parseTrustedDevices(trustedDevicesData(nodes));
  const thisDevice = thisDeviceIds(devices, fingerprint);
  const buttons = new Map<string, NodeWith<InputAttributes>>();
  for (const node of nodes) {
    if (!isInputNode(node) || node.attributes.name !== untrustName) continue;
    const value = valueAsString(node.attributes.value);
    if (value) buttons.set(value, node);
  }
  const csrfToken = inputValue(nodes, "csrf_token") ?? "";

  return (
    <CardSection
      id="settings-trusted-devices"
      title={t("settings.trustedDevices.title")}
      description={t("settings.trustedDevices.description")}
    >
      {devices.length === 0 ? (
        <p>{t("settings.trustedDevices.empty")}</p>
      ) : (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <ul
            aria-label={t("kratos.9010005")}
            className="flex max-h-[635px] flex-col gap-3 overflow-y-auto"
          >
            {devices.map((device) => {
              const button = buttons.get(device.id);
              const summaryId = `trusted-device-${device.id}`;
              return (
                <li
                  key={device.id}
                  className="rounded-md border border-slate-300 p-4 dark:border-slate-600"
                >
                  <DeviceSummary
                    id={summaryId}
                    userAgent={device.userAgent}
                    ipAddress={device.ipAddress}
                    marker={
                      thisDevice.has(device.id)
                        ? t("settings.trustedDevices.thisDevice")
                        : undefined
                    }
                  >
                    <p className="text-slate-700 dark:text-slate-300">
                      {t("settings.trustedDevices.added", {
                        date: format(device.createdAt) ?? device.createdAt,
                      })}
                    </p>
                  </DeviceSummary>
                  {button && (
                    <button
                      type="submit"
                      name={untrustName}
                      value={device.id}
                      disabled={submitting}
                      aria-describedby={summaryId}
                      className={`mt-3 ${secondaryButton} sm:w-auto`}
                    >
                      {labelText(translator, button)}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </Form>
      )}
    </CardSection>
  );
}
