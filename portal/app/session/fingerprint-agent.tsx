import { useTranslator } from "../i18n/translator-context.tsx";
import { useFingerprint } from "./use-fingerprint.ts";

/**
 * Computes the device fingerprint (loaded after hydration, apart from the page's own scripts)
 * and shows a small, non-blocking placeholder while it runs (spec §2 "Session overlays").
 */
export default function FingerprintAgent(props: { revalidateMs: number }) {
  const { t } = useTranslator();
  const computing = useFingerprint(props.revalidateMs);
  if (!computing) return null;
  return (
    <p
      role="status"
      className="fixed bottom-4 left-4 z-40 flex items-center gap-2 rounded-full bg-white/90 px-3 py-1.5 text-sm text-slate-700 shadow dark:bg-slate-800/90 dark:text-slate-200"
    >
      <span
        aria-hidden="true"
        className="inline-block size-4 animate-spin rounded-full border-2 border-current border-r-transparent"
      />
      {t("session.fingerprint.computing")}
    </p>
  );
}
