import { startTransition, useRef, useState, lazy } from "react";
import { Link, useLocation } from "react-router";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { strongLinkStyle } from "../../ui/text-link.tsx";

const confirmParam = "confirm";
const confirmValue = "create-account";

/**
 * The question's dialog is a chunk of its own: the sign-in page shows it only when asked
 * (DESIGN §6 budget). No <Suspense> around it, as with the second factor: the server's shell
 * waits for it when ?confirm= asks for it open, and a click loads it in a transition.
 */
const CreateAccountDialog = lazy(() =>
  import("./create-account-dialog.tsx").then((module) => ({
    default: module.CreateAccountDialog,
  })),
);

/**
 * "Create account" asks first whether the user really has no account (spec §2 /login).
 * The trigger is a link to ?confirm=create-account, which the server renders with the dialog
 * open, so it works without JavaScript; with JavaScript the link opens the modal in place.
 */
export function CreateAccount(props: { openOnLoad: boolean; query: string }) {
  const { t } = useTranslator();
  const location = useLocation();
  const dialogRef = useRef<HTMLDialogElement>(null);
  // Opened in place by a click (the dialog's code then loads); stays mounted once opened.
  const [asked, setAsked] = useState(false);

  const openQuery = new URLSearchParams(location.search);
  openQuery.set(confirmParam, confirmValue);

  const onOpen = (event: { preventDefault(): void }) => {
    const dialog = dialogRef.current;
    if (dialog) {
      if (!supportsModal(dialog)) return;
      event.preventDefault();
      dialog.showModal();
      return;
    }
    if (!supportsModal(undefined)) return;
    event.preventDefault();
    startTransition(() => setAsked(true));
  };

  return (
    <div className="text-sm">
      <p>
        {t("login.noAccount")}{" "}
        <Link
          to={{ search: openQuery.toString() }}
          aria-haspopup="dialog"
          preventScrollReset
          onClick={onOpen}
          className={strongLinkStyle}
        >
          {t("login.createAccount")}
        </Link>
      </p>
      {(props.openOnLoad || asked) && (
        <CreateAccountDialog
          dialogRef={dialogRef}
          openOnLoad
          query={props.query}
          param={confirmParam}
        />
      )}
    </div>
  );
}

/** Browsers without showModal (and test DOMs) keep the server's plain open dialog. */
function supportsModal(dialog: HTMLDialogElement | undefined): boolean {
  return typeof (dialog ?? HTMLDialogElement.prototype).showModal === "function";
}
