import { useEffect, useRef } from "react";
import { Alert } from "./alert.tsx";
import { showToast } from "./toasts.tsx";
import type { ToastKind } from "./toasts.tsx";

/**
 * A one-off message about what just happened (a restarted form, a failed submission).
 * With JavaScript it is a toast; without, the <noscript> alert shows it in the page.
 */
export function Notice(props: { text: string; kind: ToastKind; duration?: number; id: string }) {
  const shown = useRef<string | null>(null);
  const { text, kind, duration, id } = props;
  useEffect(() => {
    if (shown.current === id) return;
    shown.current = id;
    showToast({ kind, message: text, duration });
  }, [id, kind, text, duration]);
  return (
    <noscript>
      <Alert status={kind === "success" ? "success" : kind === "info" ? "info" : kind}>
        <p>{text}</p>
      </Alert>
    </noscript>
  );
}
