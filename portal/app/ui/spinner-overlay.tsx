import { Spinner } from "./spinner.tsx";

/**
 * Covers the page while a navigation is under way. It fades in only after 200 ms (pure CSS),
 * so fast navigations never flash it.
 */
export function SpinnerOverlay(props: { label: string }) {
  return (
    <div
      role="status"
      className="fixed inset-0 z-40 flex items-center justify-center bg-white/70 opacity-0 [animation:fade-in_150ms_ease-in_200ms_forwards] dark:bg-slate-950/70"
    >
      <Spinner className="size-10 text-blue-700 dark:text-blue-300" />
      <span className="sr-only">{props.label}</span>
    </div>
  );
}
