import { useEffect, useState } from "react";
import { useHydrated } from "../../../flows/use-hydrated.ts";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import { secondaryButton } from "../../../ui/buttons.ts";

/** Spec §9: how long "Copied" stays. */
const copiedDuration = 1500;

type CopyState = { kind: "idle" } | { kind: "copied"; at: number } | { kind: "failed" };

/**
 * Copies `text` to the clipboard. It needs scripts, so it only appears once they run; the text
 * itself stays on the page to select by hand. The outcome is announced politely: "Copied" for
 * 1.5 s, or how to copy by hand when the browser refused.
 */
export function CopyButton(props: { text: string; label: string; className?: string }) {
  const { t } = useTranslator();
  const hydrated = useHydrated();
  const [state, setState] = useState<CopyState>({ kind: "idle" });

  useEffect(() => {
    if (state.kind !== "copied") return;
    const timer = setTimeout(() => setState({ kind: "idle" }), copiedDuration);
    return () => clearTimeout(timer);
  }, [state]);

  if (!hydrated) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setState({ kind: "copied", at: Date.now() });
    } catch {
      setState({ kind: "failed" });
    }
  };
  return (
    <div className={`flex flex-wrap items-center gap-3 ${props.className ?? ""}`}>
      <button type="button" onClick={() => void copy()} className={`${secondaryButton} sm:w-auto`}>
        {props.label}
      </button>
      <span role="status" className="text-sm font-medium">
        {state.kind === "copied" && t("settings.copy.copied")}
        {state.kind === "failed" && t("settings.copy.failed")}
      </span>
    </div>
  );
}
