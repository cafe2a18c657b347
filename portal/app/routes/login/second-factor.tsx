import type { LoginFlow } from "@portal/client";
import { useEffect, useRef } from "react";
import type { Ref } from "react";
import { Link, useLocation } from "react-router";
import { FlowForm } from "../../flows/flow-form.tsx";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { secondaryButton } from "../../ui/buttons.ts";
import {
  chooseValue,
  formNodes,
  fromParam,
  methodParam,
  offeredMethods,
  secondFactorView,
} from "./second-factor-methods.ts";
import type { SecondFactorMethod, SecondFactorView } from "./second-factor-methods.ts";

const linkStyle = "font-medium text-blue-700 underline underline-offset-4 dark:text-blue-300";

/**
 * The second step of signing in (spec §2, §4): one method's form, or a chooser of methods.
 * The chooser and its "Try another way" / "Back" are links to this page with `?method=`, so
 * they work without JavaScript; with it they switch in place and focus the new heading.
 */
export function SecondFactor(props: { flow: LoginFlow; showErrorSummary: boolean }) {
  const { flow } = props;
  const { t } = useTranslator();
  const location = useLocation();
  const view = secondFactorView(flow, new URLSearchParams(location.search));
  const headingRef = useRef<HTMLHeadingElement>(null);
  const viewKey = view.kind === "method" ? view.method : view.kind;
  const shownKey = useRef(viewKey);

  useEffect(() => {
    // Only a switch moves focus; the page's first render leaves it where the browser put it.
    if (shownKey.current === viewKey) return;
    shownKey.current = viewKey;
    headingRef.current?.focus();
  }, [viewKey]);

  const hrefWith = (changes: Record<string, string | undefined>) => {
    const query = new URLSearchParams(location.search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === undefined) query.delete(name);
      else query.set(name, value);
    }
    return { search: `?${query.toString()}` };
  };

  if (view.kind === "chooser") {
    return (
      <div>
        <ViewHeading ref={headingRef} text={t("login.method.choose")} />
        <ul className="mb-4 flex flex-col gap-3">
          {view.methods.map((method) => (
            <li key={method} className="relative rounded-md border border-slate-400 p-4">
              <Link
                to={hrefWith({ [methodParam]: method, [fromParam]: undefined })}
                preventScrollReset
                aria-describedby={`method-${method}-description`}
                className={`${linkStyle} after:absolute after:inset-0`}
              >
                {t(`login.method.${method}`)}
              </Link>
              <p
                id={`method-${method}-description`}
                className="mt-1 text-sm text-slate-700 dark:text-slate-300"
              >
                {t(`login.method.${method}.description`)}
              </p>
            </li>
          ))}
        </ul>
        {view.back && (
          <Link
            to={hrefWith({ [methodParam]: view.back, [fromParam]: undefined })}
            preventScrollReset
            className={secondaryButton}
          >
            {t("login.method.back")}
          </Link>
        )}
        <LostDevice flow={flow} view={view} hrefWith={hrefWith} />
      </div>
    );
  }

  const wayOut = <LostDevice flow={flow} view={view} hrefWith={hrefWith} />;

  return (
    <div>
      <ViewHeading ref={headingRef} text={headingOf(view, t)} />
      <FlowForm
        flowId={`${flow.id}:${viewKey}`}
        nodes={formNodes(flow.ui.nodes, groupsOf(view, flow))}
        options={{ secondaryButtons: ["resend"] }}
        showErrorSummary={props.showErrorSummary}
      />
      {view.kind === "method" && view.others && (
        <Link
          to={hrefWith({ [methodParam]: chooseValue, [fromParam]: view.method })}
          preventScrollReset
          className={`mt-3 ${secondaryButton}`}
        >
          {t("login.method.tryAnother")}
        </Link>
      )}
      {wayOut}
    </div>
  );
}

/**
 * Always a way out for a lost device: a backup code when the account has them, otherwise
 * account recovery. Recovery needs the half-finished sign-in ended first (the identity service
 * refuses recovery to a browser with a session), so the link signs out on the way.
 */
function LostDevice(props: {
  flow: LoginFlow;
  view: SecondFactorView;
  hrefWith: (changes: Record<string, string | undefined>) => { search: string };
}) {
  const { t, locale } = useTranslator();
  const { view } = props;
  const backupCodes = offeredMethods(props.flow.ui.nodes).includes("lookup_secret");
  // The chooser lists backup codes itself; a sent code's entry cannot switch method.
  if (view.kind === "chooser" && backupCodes) return null;
  const toBackupCode = backupCodes && view.kind === "method" && view.method !== "lookup_secret";
  return (
    <p className="mt-4 text-sm">
      {toBackupCode ? (
        <Link
          to={props.hrefWith({ [methodParam]: "lookup_secret", [fromParam]: undefined })}
          preventScrollReset
          className={linkStyle}
        >
          {t("login.lostDevice.backupCode")}
        </Link>
      ) : (
        <a href={`/${locale}/logout?then=recovery`} className={linkStyle}>
          {t("login.lostDevice.recover")}
        </a>
      )}
    </p>
  );
}

function groupsOf(view: Exclude<SecondFactorView, { kind: "chooser" }>, flow: LoginFlow) {
  if (view.kind === "method") return [view.method];
  if (view.kind === "code-sent") return ["code"];
  return flow.ui.nodes.map((node) => node.group);
}

function headingOf(
  view: Exclude<SecondFactorView, { kind: "chooser" }>,
  t: ReturnType<typeof useTranslator>["t"],
): string {
  const method: SecondFactorMethod | undefined =
    view.kind === "method" ? view.method : view.kind === "code-sent" ? "code" : undefined;
  return method ? t(`login.method.${method}`) : t("login.method.choose");
}

/** Each view's heading; focus lands here when the view switches, so it is announced. */
function ViewHeading({ ref, text }: { ref: Ref<HTMLHeadingElement>; text: string }) {
  return (
    <h2 ref={ref} tabIndex={-1} className="mb-3 text-lg font-semibold outline-none">
      {text}
    </h2>
  );
}
