/**
 * The confirmation step's solid red button (settings only: unlink, disable, sign out elsewhere).
 * Apart from ui/buttons.ts, which the sign-in page loads: that page never takes anything away.
 */
export const confirmDestructiveButton =
  "flex w-full items-center justify-center gap-2 rounded-md bg-red-700 px-4 py-2.5 font-semibold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-70 dark:bg-red-300 dark:text-slate-950 dark:hover:bg-red-200";
