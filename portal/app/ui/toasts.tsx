import { useEffect, useState } from "react";
import type { ComponentType } from "react";
import type { ToasterProps } from "sonner";

export type ToastKind = "success" | "error" | "info" | "warning";

export interface ToastRequest {
  kind: ToastKind;
  message: string;
  /** Milliseconds on screen; the spec's default is 2 s (3 s for CSRF, 5 s for refresh). */
  duration?: number;
}

type Sonner = typeof import("sonner");

let sonnerModule: Promise<Sonner> | undefined;
const queued: ToastRequest[] = [];
const hostListeners = new Set<(sonner: Sonner) => void>();

/**
 * sonner is ~9 kB gzip, so it is fetched on the first toast rather than with the page; the
 * <ToasterHost> mounts the Toaster then and flushes what was queued meanwhile.
 */
export function showToast(request: ToastRequest): void {
  queued.push(request);
  sonnerModule ??= import("sonner");
  void sonnerModule.then((sonner) => {
    for (const listener of hostListeners) listener(sonner);
  });
}

export const toast = {
  success: (message: string, duration?: number) =>
    showToast({ kind: "success", message, duration }),
  error: (message: string, duration?: number) => showToast({ kind: "error", message, duration }),
  info: (message: string, duration?: number) => showToast({ kind: "info", message, duration }),
  warning: (message: string, duration?: number) =>
    showToast({ kind: "warning", message, duration }),
};

export function ToasterHost(props: { theme: "light" | "dark"; closeLabel: string }) {
  const [sonner, setSonner] = useState<Sonner | null>(null);

  useEffect(() => {
    const listener = (loaded: Sonner) => setSonner(() => loaded);
    hostListeners.add(listener);
    return () => {
      hostListeners.delete(listener);
    };
  }, []);

  // Runs after the Toaster child has mounted and subscribed, so no queued toast is lost.
  useEffect(() => {
    if (!sonner) return;
    for (const request of queued.splice(0)) {
      sonner.toast[request.kind](request.message, { duration: request.duration ?? 2000 });
    }
  });

  if (!sonner) return null;
  const Toaster: ComponentType<ToasterProps> = sonner.Toaster;
  return (
    <Toaster
      theme={props.theme}
      richColors
      closeButton
      position="top-center"
      toastOptions={{ closeButtonAriaLabel: props.closeLabel }}
    />
  );
}
