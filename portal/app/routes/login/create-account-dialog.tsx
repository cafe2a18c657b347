import type { RefObject } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { nodnaHref } from "../nodna.ts";

/**
 * The "Create a new account?" question (spec §2 /login): yes (registration), no (registration
 * without DNA, #nodna) or close. Loaded only when the page shows it (create-account.tsx).
 */
export function CreateAccountDialog(props: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  openOnLoad: boolean;
  query: string;
  /** The query parameter that asks for the dialog open (create-account.tsx). */
  param: string;
}) {
  const { t, locale } = useTranslator();
  const location = useLocation();
  const navigate = useNavigate();
  const { dialogRef, param: confirmParam } = props;
  const closedQuery = new URLSearchParams(location.search);
  closedQuery.delete(confirmParam);
  // return_to and login_challenge, prepared by the loader.
  const registration = `/${locale}/registration${props.query}`;

  const onClose = () => {
    const query = new URLSearchParams(location.search);
    if (!query.has(confirmParam)) return;
    query.delete(confirmParam);
    void navigate({ search: query.toString() }, { replace: true, preventScrollReset: true });
  };

  return (
    <Dialog
      dialogRef={dialogRef}
      openOnLoad={props.openOnLoad}
      title={t("login.confirmDialog.title")}
      titleId="create-account-title"
      description={t("login.confirmDialog.body")}
      descriptionId="create-account-description"
      onClose={onClose}
    >
      <div className="flex flex-col gap-3">
        <Link
          to={registration}
          className="rounded-md bg-blue-700 px-4 py-2.5 text-center font-semibold text-white hover:bg-blue-800 dark:bg-blue-300 dark:text-slate-950 dark:hover:bg-blue-200"
        >
          {t("login.confirmDialog.yes")}
        </Link>
        {/* A document navigation: the browser keeps #nodna across the flow-creating redirect,
            which a client-side navigation would drop; ?nodna=1 tells the server as well. */}
        <Link
          to={nodnaHref(`/${locale}/registration`, props.query)}
          reloadDocument
          className="rounded-md border border-slate-400 px-4 py-2.5 text-center font-semibold hover:bg-slate-100 dark:border-slate-500 dark:hover:bg-slate-800"
        >
          {t("login.confirmDialog.no")}
        </Link>
        {/* A link, so closing also drops ?confirm= without JavaScript; scripts close in place. */}
        <Link
          to={{ search: closedQuery.toString() }}
          preventScrollReset
          onClick={(event) => {
            const dialog = dialogRef.current;
            // Where the browser has modal dialogs, the link closes it in place.
            if (typeof dialog?.showModal !== "function") return;
            event.preventDefault();
            dialog.close();
          }}
          className="py-2 text-center text-sm underline underline-offset-4"
        >
          {t("login.confirmDialog.close")}
        </Link>
      </div>
    </Dialog>
  );
}
