import type { ReactNode } from "react";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import { DeviceIcon } from "./device-icon.tsx";
import { useDeviceInfo } from "./device-description.ts";

/**
 * One device as people recognise it: its type, browser and system with versions, where it
 * signed in from, a marker for the one in use, and what the caller adds (when, actions).
 * `id` names the block, so a button can point at it as its description.
 */
export function DeviceSummary(props: {
  id: string;
  userAgent: string;
  ipAddress: string | undefined;
  marker?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslator();
  const device = useDeviceInfo(props.userAgent);
  return (
    <div className="flex gap-3">
      <DeviceIcon kind={device.kind} />
      <div id={props.id} className="min-w-0 text-sm">
        <p className="font-medium">
          {t("settings.device.summary", {
            browser: device.browser ?? t("settings.device.unknownBrowser"),
            os: device.os ?? t("settings.device.unknownOs"),
          })}
          {props.marker && (
            <span className="ml-2 rounded bg-green-100 px-1.5 py-0.5 text-xs font-semibold text-green-900 dark:bg-green-900 dark:text-green-100">
              {props.marker}
            </span>
          )}
        </p>
        {props.ipAddress && (
          <p className="text-slate-700 dark:text-slate-300">
            {t("settings.device.ip", { ip: props.ipAddress })}
          </p>
        )}
        {props.children}
      </div>
    </div>
  );
}
