import { useEffect, useState } from "react";
import { useTranslator } from "../i18n/translator-context.tsx";
import { passwordRules } from "../validation/password.ts";

/** How long typing must pause before the count of met rules is announced. */
const announceAfterMs = 1000;

/**
 * Spec §5's password rule as a checklist under a new-password field, shown before the first
 * attempt (and without JavaScript), each part ticking off as the user types. The field points
 * at the list with aria-describedby; progress is announced politely once typing pauses, never
 * on every keystroke.
 */
export function PasswordRules(props: { id: string; value: string }) {
  const { t } = useTranslator();
  const states = passwordRules.map((rule) => ({ id: rule.id, met: rule.met(props.value) }));
  const met = states.filter((rule) => rule.met).length;
  const [announced, setAnnounced] = useState<number | undefined>(undefined);

  useEffect(() => {
    if (props.value === "" && announced === undefined) return;
    const timer = setTimeout(() => setAnnounced(met), announceAfterMs);
    return () => clearTimeout(timer);
  }, [met, props.value, announced]);

  return (
    <div className="mt-2 text-sm">
      <p id={`${props.id}-title`} className="text-slate-700 dark:text-slate-300">
        {t("passwordRules.title")}
      </p>
      <ul id={props.id} aria-labelledby={`${props.id}-title`} className="mt-1 space-y-0.5">
        {states.map((rule) => (
          <li
            key={rule.id}
            className={`flex items-center gap-2 ${
              rule.met ? "text-green-800 dark:text-green-300" : "text-slate-700 dark:text-slate-300"
            }`}
          >
            <RuleMark met={rule.met} />
            <span>{t(`passwordRules.${rule.id}`)}</span>{" "}
            <span className="sr-only">
              {t(rule.met ? "passwordRules.met" : "passwordRules.notMet")}
            </span>
          </li>
        ))}
      </ul>
      <p aria-live="polite" className="sr-only">
        {announced !== undefined &&
          t("passwordRules.progress", { met: announced, total: passwordRules.length })}
      </p>
    </div>
  );
}

function RuleMark(props: { met: boolean }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 shrink-0" fill="none">
      {props.met ? (
        <path d="M3 8.5l3 3 7-7" stroke="currentColor" strokeWidth="2" />
      ) : (
        <circle cx="8" cy="8" r="5" stroke="currentColor" strokeWidth="1.5" />
      )}
    </svg>
  );
}
