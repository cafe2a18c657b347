export function Spinner(props: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block size-5 animate-spin rounded-full motion-reduce:animate-none border-2 border-current border-r-transparent ${props.className ?? ""}`}
    />
  );
}
