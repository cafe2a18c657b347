/** The portal's two button looks, for buttons and links that act like buttons. */
export const primaryButton =
  "flex w-full items-center justify-center gap-2 rounded-md bg-blue-700 px-4 py-2.5 font-semibold text-white hover:bg-blue-800 disabled:cursor-not-allowed disabled:opacity-70 dark:bg-blue-300 dark:text-slate-950 dark:hover:bg-blue-200";

export const secondaryButton =
  "flex w-full items-center justify-center gap-2 rounded-md border border-slate-500 px-4 py-2.5 font-semibold hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-70 dark:border-slate-400 dark:hover:bg-slate-800";

/**
 * Takes something away (unlink, disable, sign out elsewhere): red outline, never the card's
 * brightest control; the confirmation step's own button is the solid one.
 */
export const destructiveButton =
  "flex w-full items-center justify-center gap-2 rounded-md border border-red-700 px-4 py-2.5 font-semibold text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-70 dark:border-red-300 dark:text-red-200 dark:hover:bg-red-950";
