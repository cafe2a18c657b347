import { useEffect, useRef } from "react";
import type { ReactNode, RefObject } from "react";

/**
 * The native <dialog>: accessible, focus-trapping and Escape-closing with no library.
 * Without JavaScript the server renders it `open` (non-modal) and the close control is a link;
 * once scripts run it is upgraded to a real modal with a backdrop.
 */
export function Dialog(props: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  openOnLoad: boolean;
  title: string;
  titleId: string;
  descriptionId: string;
  description: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const { dialogRef, openOnLoad, onClose } = props;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !openOnLoad || !supportsModal(dialog)) return;
    // Server-rendered `open` is non-modal; reopen it as a modal to trap focus and dim the page.
    // Not by close(): that queues a "close" event, which the handler below would take for the
    // person closing it (the page then navigated the question away as soon as scripts ran).
    dialog.removeAttribute("open");
    dialog.showModal();
  }, [dialogRef, openOnLoad]);

  const handledClose = useRef(onClose);
  useEffect(() => {
    handledClose.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const onDialogClose = () => handledClose.current();
    // A click whose target is the <dialog> itself landed on the backdrop, outside the content.
    const onBackdropClick = (event: MouseEvent) => {
      if (event.target === dialog) dialog.close();
    };
    dialog.addEventListener("close", onDialogClose);
    dialog.addEventListener("click", onBackdropClick);
    return () => {
      dialog.removeEventListener("close", onDialogClose);
      dialog.removeEventListener("click", onBackdropClick);
    };
  }, [dialogRef]);

  return (
    <dialog
      ref={dialogRef}
      open={openOnLoad}
      aria-labelledby={props.titleId}
      aria-describedby={props.descriptionId}
      // Without JavaScript the open dialog sits in the page flow; as a modal it floats centred.
      className="static my-4 w-full max-w-md rounded-lg border border-slate-300 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-950/60 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 [&:modal]:fixed [&:modal]:inset-0 [&:modal]:z-50 [&:modal]:m-auto [&:modal]:w-[calc(100%-2rem)]"
    >
      <h2 id={props.titleId} className="text-lg font-semibold">
        {props.title}
      </h2>
      <p id={props.descriptionId} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        {props.description}
      </p>
      <div className="mt-6">{props.children}</div>
    </dialog>
  );
}

/** Browsers without showModal (and test DOMs) keep the server's plain open dialog. */
function supportsModal(dialog: HTMLDialogElement): boolean {
  return typeof dialog.showModal === "function";
}
