import { useEffect, useEffectEvent, useId, useRef, useState } from "react";
import type { ReactNode, RefObject } from "react";
import { useIdleTimer } from "react-idle-timer";
import type { IIdleTimerProps } from "react-idle-timer";
import { useTranslator } from "../i18n/translator-context.tsx";
import { primaryButton, secondaryButton } from "../ui/buttons.ts";
import { clock, nextAnnouncement, secondsLeft, spokenDuration } from "./countdown.ts";
import { leavePage, postSignOut } from "./leave-page.ts";
import type { SessionSettings } from "./session-settings.ts";

/** Sent to the other tabs when the user signs out from the prompt. */
export const signedOutMessage = "portal-session:signed-out";

/** How the session ended: the timeout ran out, or the user signed out in another tab. */
export type EndReason = "idle" | "signed-out";

/**
 * Spec §4 and §9: prompt before idle, idle-event throttle 500 ms, shared across tabs with the
 * timers synced every 200 ms, stopped once idle.
 */
export function idleTimerOptions(settings: SessionSettings): IIdleTimerProps {
  return {
    timeout: settings.idleTimeoutMs,
    promptBeforeIdle: settings.promptBeforeIdleMs,
    throttle: 500,
    eventsThrottle: 500,
    crossTab: true,
    name: "portal-idle-timeout",
    syncTimers: 200,
    stopOnIdle: true,
  };
}

/**
 * Revokes the browser's session at the identity service, through the portal's proxy: a logout
 * token, then the logout itself. Without a session (another tab was first) there is nothing to do.
 */
export async function endSession(): Promise<void> {
  const json = { headers: { accept: "application/json" } };
  try {
    const flow = await fetch("/api/kratos/self-service/logout/browser", json);
    if (!flow.ok) return;
    const body: unknown = await flow.json();
    const token =
      typeof body === "object" && body !== null && "logout_token" in body
        ? body.logout_token
        : undefined;
    if (typeof token !== "string") return;
    await fetch(`/api/kratos/self-service/logout?token=${encodeURIComponent(token)}`, json);
  } catch (error) {
    console.warn(error);
  }
}

/**
 * The idle timeout of a signed-in page (loaded only while a session exists): watches activity,
 * prompts with a countdown, and at idle ends the session and says so until the user goes on.
 */
export interface IdleTimeoutProps {
  settings: SessionSettings;
  /** Called once the session has ended here, so the overlay outlives later session checks. */
  onEnded: () => void;
}

export default function IdleTimeout(props: IdleTimeoutProps) {
  const [ended, setEnded] = useState<EndReason | null>(null);
  const ending = useRef<Promise<void>>(Promise.resolve());
  const { onEnded } = props;

  if (ended) return <SessionEndedDialog reason={ended} ending={ending} />;
  return (
    <IdleWatch
      settings={props.settings}
      onEnd={(reason) => {
        if (reason === "idle") ending.current = endSession();
        setEnded(reason);
        onEnded();
      }}
    />
  );
}

function IdleWatch(props: { settings: SessionSettings; onEnd: (reason: EndReason) => void }) {
  const { locale } = useTranslator();
  const [prompted, setPrompted] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const { onEnd } = props;

  const timer = useIdleTimer({
    ...idleTimerOptions(props.settings),
    onPrompt: () => setPrompted(true),
    // Continue here or in another tab: close the dialog first so focus goes back where it was.
    onActive: () => {
      if (dialogRef.current) closeDialog(dialogRef.current);
      setPrompted(false);
    },
    onIdle: () => onEnd("idle"),
    onMessage: (data: unknown) => {
      if (data === signedOutMessage) onEnd("signed-out");
    },
  });

  if (!prompted) return null;
  return (
    <TimeoutPrompt
      dialogRef={dialogRef}
      remainingMs={() => timer.getRemainingTime()}
      onContinue={() => timer.activate()}
      onDismiss={() => {
        // Escape or a click beside the dialog means the user is here; a close after Continue
        // (here or in another tab) finds the timer active already.
        if (timer.isPrompted()) timer.activate();
      }}
      onLogout={() => {
        timer.message(signedOutMessage);
        postSignOut(`/${locale}/logout`);
      }}
    />
  );
}

function TimeoutPrompt(props: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  remainingMs: () => number;
  onContinue: () => void;
  onDismiss: () => void;
  onLogout: () => void;
}) {
  const { t } = useTranslator();
  const { dialogRef, remainingMs } = props;
  const [seconds, setSeconds] = useState(() => secondsLeft(remainingMs()));
  // Empty at first: a live region is heard when its text changes, not when it appears.
  const [announced, setAnnounced] = useState<number | undefined>(undefined);

  const tick = useEffectEvent(() => {
    const now = secondsLeft(remainingMs());
    setSeconds(now);
    setAnnounced((previous) => nextAnnouncement(previous, now) ?? previous);
  });
  useEffect(() => {
    const interval = setInterval(tick, 1000);
    return () => clearInterval(interval);
  }, []);

  return (
    <SessionDialog
      dialogRef={dialogRef}
      title={t("session.prompt.title")}
      description={t("session.prompt.body")}
      onClose={props.onDismiss}
    >
      <p className="mt-4 text-sm">
        {t("session.prompt.timeLeft")}{" "}
        <span role="timer" className="ml-1 font-mono text-2xl font-semibold tabular-nums">
          {clock(seconds)}
        </span>
      </p>
      {/* role=status: polite and read whole; it speaks at most every 30 s (countdown.ts). */}
      <p role="status" className="sr-only">
        {announced !== undefined &&
          t("session.prompt.announcement", { time: spokenDuration(announced, t) })}
      </p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <button type="button" className={primaryButton} onClick={props.onContinue}>
          {t("session.prompt.continue")}
        </button>
        <button type="button" className={secondaryButton} onClick={props.onLogout}>
          {t("session.prompt.logout")}
        </button>
      </div>
    </SessionDialog>
  );
}

function SessionEndedDialog(props: { reason: EndReason; ending: RefObject<Promise<void>> }) {
  const { t, locale } = useTranslator();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const { ending } = props;

  // The login page must not see the old session, so the revocation finishes first.
  const toLogin = () => {
    void ending.current.then(() => leavePage(`/${locale}/login`));
  };
  const idle = props.reason === "idle";
  return (
    <SessionDialog
      dialogRef={dialogRef}
      title={t(idle ? "session.expired.title" : "session.signedOut.title")}
      description={t(idle ? "session.expired.body" : "session.signedOut.body")}
      onClose={toLogin}
    >
      <button type="button" className={`${primaryButton} mt-6`} onClick={toLogin}>
        {t("session.expired.ok")}
      </button>
    </SessionDialog>
  );
}

/**
 * A native modal <dialog> (as app/ui/dialog.tsx, which also serves pages without JavaScript;
 * these overlays only exist with it): opened as a modal when mounted, so focus moves in and the
 * page behind is inert; Escape or a click on the backdrop closes it, and `onClose` decides what
 * that means. Closing returns focus to where it was.
 */
function SessionDialog(props: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  title: string;
  description: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const { dialogRef } = props;
  const onClose = useEffectEvent(props.onClose);
  const id = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    // Where showModal is missing (old browsers, test DOMs) the dialog still shows, not as a modal.
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    const closed = () => onClose();
    // A click whose target is the <dialog> itself landed on the backdrop, outside the content.
    const backdropClick = (event: MouseEvent) => {
      if (event.target === dialog) closeDialog(dialog);
    };
    dialog.addEventListener("close", closed);
    dialog.addEventListener("click", backdropClick);
    return () => {
      dialog.removeEventListener("close", closed);
      dialog.removeEventListener("click", backdropClick);
    };
  }, [dialogRef]);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-description`}
      // An opaque backdrop in both themes: whoever finds the screen sees none of the page behind.
      className="fixed inset-0 z-50 m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-300 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-200 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:backdrop:bg-slate-950"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {props.title}
      </h2>
      <p id={`${id}-description`} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        {props.description}
      </p>
      {props.children}
    </dialog>
  );
}

function closeDialog(dialog: HTMLDialogElement): void {
  if (typeof dialog.close === "function") dialog.close();
  else dialog.removeAttribute("open");
}
