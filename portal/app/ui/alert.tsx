import type { ReactNode, Ref } from "react";
import { Spinner } from "./spinner.tsx";

export type AlertStatus = "info" | "warning" | "success" | "error" | "loading";

const styles: Record<AlertStatus, string> = {
  info: "border-blue-300 bg-blue-50 text-blue-950 dark:border-blue-700 dark:bg-blue-950 dark:text-blue-100",
  warning:
    "border-amber-400 bg-amber-50 text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100",
  success:
    "border-green-400 bg-green-50 text-green-950 dark:border-green-700 dark:bg-green-950 dark:text-green-100",
  error:
    "border-red-400 bg-red-50 text-red-950 dark:border-red-700 dark:bg-red-950 dark:text-red-100",
  loading:
    "border-slate-300 bg-slate-50 text-slate-900 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100",
};

/**
 * Errors interrupt (role=alert); everything else is announced politely (role=status).
 */
export function Alert({
  status,
  title,
  children,
  id,
  tabIndex,
  ref,
}: {
  status: AlertStatus;
  title?: string;
  children?: ReactNode;
  id?: string;
  tabIndex?: number;
  ref?: Ref<HTMLDivElement>;
}) {
  return (
    <div
      id={id}
      ref={ref}
      tabIndex={tabIndex}
      role={status === "error" ? "alert" : "status"}
      aria-busy={status === "loading" ? true : undefined}
      data-status={status}
      className={`mb-4 flex gap-3 rounded-md border px-4 py-3 text-sm ${styles[status]}`}
    >
      {status === "loading" && <Spinner className="mt-0.5 shrink-0" />}
      <div className="min-w-0">
        {title && <p className="font-semibold">{title}</p>}
        {children}
      </div>
    </div>
  );
}
