import type { LoginFlow } from "@portal/client";
import { useLayoutEffect, useRef } from "react";
import type { Ref } from "react";
import { Link, useLocation, useRouteLoaderData } from "react-router";
import { FlowForm } from "../../flows/flow-form.tsx";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { secondaryButton } from "../../ui/buttons.ts";
import { strongLinkStyle } from "../../ui/text-link.tsx";
import {
  chooseValue,
  formNodes,
  fromParam,
  methodParam,
  offeredMethods,
  secondFactorView,
} from "./second-factor-methods.ts";
import type { SecondFactorMethod, SecondFactorView } from "./second-factor-methods.ts";

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

  // In the commit that shows the new view, not after it: the link that was clicked may be the
  // same element as the new view's "Back", and focus must not linger on it (found under load).
  useLayoutEffect(() => {
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
                className={`${strongLinkStyle} after:absolute after:inset-0`}
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
 * Always a way out for a lost device, one that really gets the person in: a backup code when the
 * account has them, else a code by e-mail or text message when the flow offers one. Account
 * recovery is no way out: it signs in at the first factor only, and the identity service then asks
 * for the highest second factor again (settings require it), so the person lands back here. With
 * neither, support: an administrator can remove the authenticator app.
 */
function LostDevice(props: {
  flow: LoginFlow;
  view: SecondFactorView;
  hrefWith: (changes: Record<string, string | undefined>) => { search: string };
}) {
  const { t } = useTranslator();
  const root = useRouteLoaderData<{ links?: { supportUrl?: string } }>("root");
  const { view } = props;
  const methods = offeredMethods(props.flow.ui.nodes);
  const backupCodes = methods.includes("lookup_secret");
  const code = methods.includes("code");
  // The chooser lists backup codes and codes itself.
  if (view.kind === "chooser" && (backupCodes || code)) return null;
  const current = view.kind === "method" ? view.method : undefined;
  // A sent code's entry cannot switch method (second-factor-methods): support only.
  const canSwitch = view.kind !== "code-sent";
  const other: SecondFactorMethod | undefined =
    canSwitch && backupCodes && current !== "lookup_secret"
      ? "lookup_secret"
      : canSwitch && code && current !== "code"
        ? "code"
        : undefined;
  if (other) {
    return (
      <p className="mt-4 text-sm">
        <Link
          to={props.hrefWith({ [methodParam]: other, [fromParam]: undefined })}
          preventScrollReset
          className={strongLinkStyle}
        >
          {t(other === "code" ? "login.lostDevice.code" : "login.lostDevice.backupCode")}
        </Link>
      </p>
    );
  }
  return (
    <div className="mt-4 text-sm">
      <p>
        {root?.links?.supportUrl ? (
          <a href={root.links.supportUrl} className={strongLinkStyle}>
            {t("login.lostDevice.support")}
          </a>
        ) : (
          t("login.lostDevice.support")
        )}
      </p>
      <p className="mt-1 text-slate-700 dark:text-slate-300">{t("login.lostDevice.supportWhy")}</p>
    </div>
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
