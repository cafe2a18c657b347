import type { ReactNode } from "react";

/** A white panel; `fill` makes it as wide as its container (settings stacks several). */
export function Card(props: { children: ReactNode; className?: string; fill?: boolean }) {
  return (
    <div
      className={`w-full ${props.fill ? "" : "max-w-md"} rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-700 dark:bg-slate-900 ${props.className ?? ""}`}
    >
      {props.children}
    </div>
  );
}
