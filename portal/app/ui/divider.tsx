export function Divider(props: { label?: string }) {
  if (!props.label) return <hr className="my-6 border-slate-200 dark:border-slate-700" />;
  return (
    <div className="my-6 flex items-center gap-3 text-sm text-slate-600 dark:text-slate-300">
      <hr className="flex-1 border-slate-200 dark:border-slate-700" />
      <span>{props.label}</span>
      <hr className="flex-1 border-slate-200 dark:border-slate-700" />
    </div>
  );
}
