import type { ReactNode } from "react";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import type { DeviceKind } from "./device-description.ts";

/** Simple outline drawings on a 24×24 grid, one per device kind. */
const shapes: Record<DeviceKind, ReactNode> = {
  desktop: (
    <>
      <rect x="3" y="4" width="18" height="12" rx="1.5" />
      <path d="M9 20h6M12 16v4" />
    </>
  ),
  tablet: (
    <>
      <rect x="5" y="2.5" width="14" height="19" rx="2" />
      <path d="M11 18.5h2" />
    </>
  ),
  mobile: (
    <>
      <rect x="7" y="2.5" width="10" height="19" rx="2" />
      <path d="M11 18.5h2" />
    </>
  ),
  tv: (
    <>
      <rect x="2.5" y="5" width="19" height="12" rx="1.5" />
      <path d="M8 21h8M9 2.5l3 2.5 3-2.5" />
    </>
  ),
  bot: (
    <>
      <rect x="5" y="8" width="14" height="11" rx="2" />
      <path d="M12 4v4M9.5 12.5v1M14.5 12.5v1M9.5 16h5" />
    </>
  ),
  unknown: (
    <>
      <rect x="4" y="4" width="16" height="16" rx="2" />
      <path d="M10 10a2 2 0 1 1 2.8 1.8c-.5.3-.8.7-.8 1.2v.5M12 16.5v.01" />
    </>
  ),
};

/** The device type as a picture with its name for screen readers (spec §2 icons). */
export function DeviceIcon(props: { kind: DeviceKind }) {
  const { t } = useTranslator();
  return (
    <svg
      role="img"
      aria-label={t(`settings.device.${props.kind}`)}
      viewBox="0 0 24 24"
      className="size-8 shrink-0 text-slate-700 dark:text-slate-300"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {shapes[props.kind]}
    </svg>
  );
}
