import { useRef } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { Dialog, supportsModal } from "../../ui/dialog.tsx";
import { strongLinkStyle } from "../../ui/text-link.tsx";
import { nodnaHref } from "../nodna.ts";

const confirmParam = "confirm";
const confirmValue = "create-account";

/**
 * "Create account" asks first whether the user really has no account (spec §2 /login).
 * The trigger is a link to ?confirm=create-account, which the server renders with the dialog
 * open, so it works without JavaScript; with JavaScript the link opens the modal in place.
 */
export function CreateAccount(props: { openOnLoad: boolean; query: string }) {
  const { t, locale } = useTranslator();
  const location = useLocation();
  const navigate = useNavigate();
  const dialogRef = useRef<HTMLDialogElement>(null);

  const openQuery = new URLSearchParams(location.search);
  openQuery.set(confirmParam, confirmValue);
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
    <div className="text-sm">
      <p>
        {t("login.noAccount")}{" "}
        <Link
          to={{ search: openQuery.toString() }}
          aria-haspopup="dialog"
          preventScrollReset
          onClick={(event) => inPlace(event, dialogRef.current, (dialog) => dialog.showModal())}
          className={strongLinkStyle}
        >
          {t("login.createAccount")}
        </Link>
      </p>
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
            onClick={(event) => inPlace(event, dialogRef.current, (dialog) => dialog.close())}
            className="py-2 text-center text-sm underline underline-offset-4"
          >
            {t("login.confirmDialog.close")}
          </Link>
        </div>
      </Dialog>
    </div>
  );
}

/** Where the browser has modal dialogs, a link acts on the dialog in place of navigating. */
function inPlace(
  event: { preventDefault(): void },
  dialog: HTMLDialogElement | null,
  act: (dialog: HTMLDialogElement) => void,
): void {
  if (!dialog || !supportsModal(dialog)) return;
  event.preventDefault();
  act(dialog);
}
