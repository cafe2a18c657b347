/** Unknown URLs render the root error boundary's "page not found" with status 404. */
export function loader() {
  throw new Response(null, { status: 404 });
}

export function action() {
  throw new Response(null, { status: 404 });
}

/** Never rendered: the loader always redirects or throws. Being a UI route keeps 404s as HTML pages. */
export default function Redirecting() {
  return null;
}
